import { describe, expect, it } from 'vitest';
import type { ProgressItem } from '@core/accounts';
import { metricCharts, practiceName, resultsUrl, sectionCharts } from './progress-data';

const item = (over: Partial<ProgressItem>): ProgressItem => ({
  kind: 'roleplay',
  id: 'a',
  stage: 'Windows',
  at: '2026-11-20T10:00:00.000Z',
  fileName: null,
  coached: true,
  scores: {},
  overall: null,
  talkRatio: null,
  questions: null,
  longestMonologueWords: null,
  ...over,
});

describe('progress chart data', () => {
  it('charts run oldest to newest and leave out calls without the number', () => {
    const items = [
      item({ id: 'new', at: '2026-11-27T10:00:00.000Z', scores: { empathy: 8 }, questions: 12 }),
      item({ id: 'mid', at: '2026-11-24T10:00:00.000Z', scores: { empathy: null }, questions: null }),
      item({ id: 'old', at: '2026-11-20T10:00:00.000Z', scores: { empathy: 5 }, questions: 4 }),
    ];
    const empathy = sectionCharts(items).find((c) => c.key === 'empathy')!;
    expect(empathy.points.map((p) => [p.id, p.value])).toEqual([
      ['old', 5],
      ['new', 8],
    ]);
    expect(empathy.max).toBe(10);
    const questions = metricCharts(items).find((c) => c.key === 'questions')!;
    expect(questions.points.map((p) => p.value)).toEqual([4, 12]);
  });

  it('a locked section says how to see it; an unscored one says there is nothing yet', () => {
    const charts = sectionCharts([item({ scores: { empathy: 7, closing: null } })]);
    expect(charts.find((c) => c.key === 'closing')!.empty).toBe(
      "Scores show once you unlock a call's full coaching.",
    );
    expect(charts.find((c) => c.key === 'empathy')!.empty).toBe('No scores yet.');
    expect(sectionCharts([item({ coached: false })]).find((c) => c.key === 'closing')!.empty).toBe(
      'No scores yet.',
    );
  });

  it('names and links a call as the recent-practice list does', () => {
    expect(practiceName(item({}))).toBe('Windows role-play');
    expect(practiceName(item({ kind: 'audio', fileName: 'Smith.m4a' }))).toBe('Call analysis · Smith.m4a');
    expect(resultsUrl(item({ id: 'x y' }))).toBe('/?session=x%20y');
    expect(resultsUrl(item({ kind: 'audio', id: 'z' }))).toBe('/audio?session=z');
  });
});
