import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { conversationMetrics } from '@core/conversation-metrics';
import { MetricsPanel } from './metrics-panel';

const T0 = 1_700_000_000_000;
const metrics = conversationMetrics(
  [
    { role: 'assistant', transcript: 'Hello there.', timestamp: T0 + 2000 },
    { role: 'user', transcript: 'Hi! What got you thinking about a new roof?', timestamp: T0 + 6000 },
    { role: 'assistant', transcript: 'A leak in the back bedroom after the storm.', timestamp: T0 + 11000 },
    { role: 'user', transcript: 'Trust me, this price is only good today.', timestamp: T0 + 15000 },
  ],
  { durationSec: 15 },
);

const render = (m: unknown, typed = false) =>
  renderToStaticMarkup(<MetricsPanel metrics={m} typed={typed} />);

describe('MetricsPanel', () => {
  it('shows every metric with help that opens on a tap and a word for its range', () => {
    const html = render(metrics);
    expect(html).toContain('Conversation Metrics');
    for (const label of [
      'Your talk time',
      'Longest monologue',
      'Questions asked',
      'Patience',
      'Filler words',
      'Speaking pace',
      'Pressure phrases',
    ]) {
      expect(html).toContain(`aria-label="About ${label}"`);
    }
    expect(html).toContain('top reps near 43% talk time');
    expect(html).toMatch(/aria-controls="metric-help-talkRatio"/);
    expect(html).toMatch(/aria-expanded="false"/);
    expect(html).toMatch(/Pressure phrases.*2: (only good today; trust me|trust me; only good today)/);
    // Colour is never the only signal.
    expect(html).toContain('Out of range');
    expect(html).toContain('In range');
  });

  it('leaves the timing metrics out of a typed call', () => {
    const html = render(metrics, true);
    for (const label of ['Speaking pace', 'Patience', 'Filler words', 'Question rate', 'Interactivity'])
      expect(html).not.toContain(`About ${label}`);
    expect(html).toContain('About Your talk time');
    expect(html).not.toMatch(/% of time/);
    expect(html).toContain('You typed this call');
  });

  it('renders nothing for sessions coached before metrics existed', () => {
    expect(render(null)).toBe('');
    expect(render({ talk: 1 })).toBe('');
  });
});
