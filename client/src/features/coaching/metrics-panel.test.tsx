import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { conversationMetrics } from '@core/conversation-metrics';
import { TooltipProvider } from '@client/components/ui/tooltip';
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

const render = (m: unknown) =>
  renderToStaticMarkup(
    <TooltipProvider>
      <MetricsPanel metrics={m} />
    </TooltipProvider>,
  );

describe('MetricsPanel', () => {
  it('shows every metric with an accessible explanation', () => {
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
    expect(html).toMatch(/aria-describedby="metric-help-talkRatio"/);
    expect(html).toMatch(/Pressure phrases.*2: (only good today; trust me|trust me; only good today)/);
    expect(html).toContain('(outside the healthy range)');
  });

  it('renders nothing for sessions coached before metrics existed', () => {
    expect(render(null)).toBe('');
    expect(render({ talk: 1 })).toBe('');
  });
});
