import { GATED_SECTIONS, SECTION_KEYS, SECTION_TITLES, type SectionKey } from '@core/coaching-format';
import type { ProgressItem } from '@core/accounts';

/** A short date for chart axes and tables ("Nov 28"). */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

export interface Point {
  id: string;
  label: string;
  value: number;
}

/** One number per call over time (oldest first), leaving out calls without it. */
export function series(items: ProgressItem[], pick: (item: ProgressItem) => number | null): Point[] {
  return [...items].reverse().flatMap((item) => {
    const value = pick(item);
    return typeof value === 'number' ? [{ id: item.id, label: shortDate(item.at), value }] : [];
  });
}

export interface Chart {
  key: string;
  /** Said when there are no points yet. */
  empty: string;
  title: string;
  /** What the value is, for the table's column heading. */
  unit: string;
  max?: number;
  points: Point[];
}

export function sectionCharts(items: ProgressItem[]): Chart[] {
  const coached = items.some((i) => i.coached);
  return SECTION_KEYS.map((key: SectionKey) => ({
    key,
    empty:
      coached && GATED_SECTIONS.includes(key)
        ? "Scores show once you unlock a call's full coaching."
        : 'No scores yet.',
    title: SECTION_TITLES[key],
    unit: 'Score out of 10',
    max: 10,
    points: series(items, (i) => i.scores[key] ?? null),
  }));
}

export function metricCharts(items: ProgressItem[]): Chart[] {
  return [
    {
      key: 'talkRatio',
      empty: 'Not measured yet.',
      title: 'Your share of the talking',
      unit: '% of the words',
      max: 100,
      points: series(items, (i) => i.talkRatio),
    },
    {
      key: 'questions',
      empty: 'Not measured yet.',
      title: 'Questions you asked',
      unit: 'Questions',
      points: series(items, (i) => i.questions),
    },
    {
      key: 'monologue',
      empty: 'Not measured yet.',
      title: 'Longest stretch without a pause for them',
      unit: 'Words',
      points: series(items, (i) => i.longestMonologueWords),
    },
  ];
}

/** How a call is named in lists. */
export function practiceName(item: Pick<ProgressItem, 'kind' | 'stage' | 'fileName'>): string {
  return item.kind === 'audio'
    ? `Call analysis${item.fileName ? ` · ${item.fileName}` : ''}`
    : `${item.stage} role-play`;
}

export function resultsUrl(item: Pick<ProgressItem, 'kind' | 'id'>): string {
  return `${item.kind === 'audio' ? '/audio' : '/'}?session=${encodeURIComponent(item.id)}`;
}
