import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AudioTranscript } from './audio-transcript';

const T0 = 1_700_000_000_000;
const transcript = [
  { role: 'user' as const, transcript: 'Thanks for having me over.', timestamp: T0 },
  { role: 'user' as const, transcript: 'How old is the roof?', timestamp: T0 + 4000 },
];

const render = (attribution: 'stereo' | 'turns' | 'single', guess: boolean, swapped = false) =>
  renderToStaticMarkup(
    <AudioTranscript
      transcript={transcript}
      attributionIsGuess={guess}
      attribution={attribution}
      swapping={false}
      speakersSwapped={swapped}
      sttEngine={{
        id: 'pocketsphinx',
        label: 'PocketSphinx',
        quality: 'basic',
      }}
      onSeek={() => undefined}
      onSwap={() => undefined}
    />,
  );

describe('AudioTranscript speaker note', () => {
  it('explains a one-voice recording instead of talking about turn-taking', () => {
    const html = render('single', true);
    expect(html).toContain('Only one voice could be made out');
    expect(html).toContain('every line is shown as You');
    expect(html).not.toContain('turn-taking');
  });

  it('follows the lines after Swap speakers: every line is then the customer', () => {
    const html = render('single', true, true);
    expect(html).toContain('every line is shown as Customer');
    expect(html).not.toContain('shown as You');
    expect(render('turns', true, true)).toContain('you swapped the speakers round');
  });

  it('shows a neutral quality hint, never set-up commands or variable names', () => {
    const html = render('stereo', false);
    expect(html).toContain('Transcript may be approximate');
    expect(html).not.toMatch(/PocketSphinx|engine/i);
    expect(html).not.toMatch(/npm|STT_PROVIDER|models/);
  });

  it('says who-said-what came from turn-taking when it did, and says nothing for stereo', () => {
    expect(render('turns', true)).toContain('worked out from turn-taking');
    const stereo = render('stereo', false);
    expect(stereo).not.toContain('turn-taking');
    expect(stereo).not.toContain('Only one voice');
  });
});
