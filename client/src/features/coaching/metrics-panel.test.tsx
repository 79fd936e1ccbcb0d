import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ConversationMetrics } from '@core/conversation-metrics';
import { MetricsPanel } from './metrics-panel';

/**
 * What the server measures for a 15-second call: a greeting, "Hi! What got you thinking about a
 * new roof?", an answer, and "Trust me, this price is only good today." (the panel only displays).
 */
const metrics: ConversationMetrics = {
  version: 1,
  durationSec: 15,
  repWords: 17,
  homeownerWords: 11,
  repTurns: 2,
  homeownerTurns: 2,
  talkRatioWordsPercent: 61,
  talkRatioTimePercent: 53,
  longestMonologueWords: 9,
  longestMonologueSec: 4,
  questions: { total: 1, open: 1, closed: 0 },
  questionsPerMinute: 4,
  interactivityPerMinute: 12,
  patienceSec: 0.2,
  fillerWords: 0,
  fillersPerMinute: 0,
  paceWpm: 128,
  pressurePhrases: ['only good today', 'trust me'],
};

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
    expect(html).toContain('aim for 40% or less, so the homeowner speaks 60% or more');
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
