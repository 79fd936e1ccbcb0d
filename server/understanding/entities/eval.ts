import { findMoney } from './money';
import { findPeople } from './people';
import { findTimes } from './times';
import type { EntityContext, MoneyEntity, PersonEntity, TimeEntity } from './types';

/**
 * Scores the entity readers against labelled corpus lines (corpus/GUIDE.md). A reading is
 * matched to a label when their spans overlap (the label's text found in the line), or, when
 * the label's text is not in the line, when they say the same thing. Per type:
 * - precision: matched readings / readings; recall: matched labels / labels;
 * - exact: readings whose fields are exactly the label's, over every label and every unmatched
 *   reading (a missed label and a spurious reading both count against it). The fields are the
 *   value (or min and max) and per for money; day, part, time and ampm for times; name,
 *   relation, status and decides for people;
 * - role: among matched money and times, the share whose role is the label's.
 */

export interface LabelledLine {
  id?: string;
  author?: string;
  speaker: 'rep' | 'homeowner';
  context?: string | null;
  text: string;
  entities?: {
    money?: Partial<MoneyEntity>[];
    times?: Partial<TimeEntity>[];
    people?: Partial<PersonEntity>[];
  };
}

export interface TypeScore {
  labels: number;
  readings: number;
  matched: number;
  exactMatches: number;
  precision: number;
  recall: number;
  exact: number;
  /** Matched pairs with the same role (money, times); null for people. */
  role: number | null;
}

export interface EntityMiss {
  id?: string;
  type: 'money' | 'times' | 'people';
  text: string;
  label: string | null;
  reading: string | null;
}

export interface EntityScores {
  money: TypeScore;
  times: TypeScore;
  people: TypeScore;
  misses: EntityMiss[];
}

type Kind = 'money' | 'times' | 'people';

interface Item {
  start: number;
  end: number;
  key: string;
  role?: string;
}

export function moneyKey(e: Partial<MoneyEntity>): string {
  const amount = e.min !== undefined && e.min !== null ? `${e.min}-${e.max}` : `${e.value}`;
  return `${amount} per ${e.per ?? null}`;
}

export function timeKey(e: Partial<TimeEntity>): string {
  return `day=${e.day ?? null} part=${e.part ?? null} time=${e.time ?? null} ampm=${e.ampm ?? null}`;
}

export function personKey(e: Partial<PersonEntity>): string {
  const name = e.name ? e.name.toLowerCase() : null;
  return `name=${name} relation=${e.relation} status=${e.status ?? null} decides=${e.decides ?? null}`;
}

const KEY: Record<Kind, (e: any) => string> = { money: moneyKey, times: timeKey, people: personKey };

/** Where each label's text sits in the line (the next unused occurrence), or -1. */
function locate(text: string, labels: { text?: string }[]): Item['start'][] {
  const lower = text.toLowerCase();
  const used: number[] = [];
  return labels.map((l) => {
    const needle = (l.text ?? '').toLowerCase();
    if (!needle) return -1;
    let from = 0;
    for (;;) {
      const at = lower.indexOf(needle, from);
      if (at < 0) return -1;
      if (!used.includes(at)) {
        used.push(at);
        return at;
      }
      from = at + 1;
    }
  });
}

function align(gold: Item[], pred: Item[]): [number, number][] {
  const pairs: [number, number][] = [];
  const gUsed = new Set<number>();
  const pUsed = new Set<number>();
  const overlaps: { g: number; p: number; size: number }[] = [];
  gold.forEach((g, gi) => {
    if (g.start < 0) return;
    pred.forEach((p, pi) => {
      const size = Math.min(g.end, p.end) - Math.max(g.start, p.start);
      if (size > 0) overlaps.push({ g: gi, p: pi, size: size + (g.key === p.key ? 1000 : 0) });
    });
  });
  overlaps.sort((a, b) => b.size - a.size);
  for (const o of overlaps) {
    if (gUsed.has(o.g) || pUsed.has(o.p)) continue;
    gUsed.add(o.g);
    pUsed.add(o.p);
    pairs.push([o.g, o.p]);
  }
  gold.forEach((g, gi) => {
    if (gUsed.has(gi) || g.start >= 0) return;
    const pi = pred.findIndex((p, k) => !pUsed.has(k) && p.key === g.key);
    if (pi >= 0) {
      gUsed.add(gi);
      pUsed.add(pi);
      pairs.push([gi, pi]);
    }
  });
  return pairs;
}

function empty(): TypeScore {
  return {
    labels: 0,
    readings: 0,
    matched: 0,
    exactMatches: 0,
    precision: 1,
    recall: 1,
    exact: 1,
    role: null,
  };
}

export function readLine(line: LabelledLine): {
  money: MoneyEntity[];
  times: TimeEntity[];
  people: PersonEntity[];
} {
  const ctx: EntityContext = { speaker: line.speaker, previous: line.context ?? undefined };
  return {
    money: findMoney(line.text, ctx),
    times: findTimes(line.text, ctx),
    people: findPeople(line.text, ctx),
  };
}

export function scoreEntities(lines: LabelledLine[]): EntityScores {
  const totals: Record<Kind, TypeScore & { roleSame: number; roleSeen: number }> = {
    money: { ...empty(), roleSame: 0, roleSeen: 0 },
    times: { ...empty(), roleSame: 0, roleSeen: 0 },
    people: { ...empty(), roleSame: 0, roleSeen: 0 },
  };
  const misses: EntityMiss[] = [];
  for (const line of lines) {
    const read = readLine(line);
    for (const kind of ['money', 'times', 'people'] as Kind[]) {
      const labels = (line.entities?.[kind] ?? []) as any[];
      const readings = read[kind] as any[];
      const starts = locate(line.text, labels);
      const gold: Item[] = labels.map((l, k) => ({
        start: starts[k],
        end: starts[k] + (l.text ?? '').length,
        key: KEY[kind](l),
        role: l.role,
      }));
      const pred: Item[] = readings.map((r) => ({
        start: r.start,
        end: r.end,
        key: KEY[kind](r),
        role: r.role,
      }));
      const pairs = align(gold, pred);
      const t = totals[kind];
      t.labels += gold.length;
      t.readings += pred.length;
      t.matched += pairs.length;
      for (const [g, p] of pairs) {
        if (gold[g].key === pred[p].key) t.exactMatches++;
        else
          misses.push({
            id: line.id,
            type: kind,
            text: line.text,
            label: `${labels[g].text}: ${gold[g].key}`,
            reading: `${readings[p].text}: ${pred[p].key}`,
          });
        if (kind !== 'people') {
          t.roleSeen++;
          if (gold[g].role === pred[p].role) t.roleSame++;
        }
      }
      const gHit = new Set(pairs.map(([g]) => g));
      const pHit = new Set(pairs.map(([, p]) => p));
      gold.forEach((g, k) => {
        if (!gHit.has(k))
          misses.push({
            id: line.id,
            type: kind,
            text: line.text,
            label: `${labels[k].text}: ${g.key}`,
            reading: null,
          });
      });
      pred.forEach((p, k) => {
        if (!pHit.has(k))
          misses.push({
            id: line.id,
            type: kind,
            text: line.text,
            label: null,
            reading: `${readings[k].text}: ${p.key}`,
          });
      });
    }
  }
  const finish = (t: TypeScore & { roleSame: number; roleSeen: number }, withRole: boolean): TypeScore => {
    const union = t.labels + t.readings - t.matched;
    return {
      labels: t.labels,
      readings: t.readings,
      matched: t.matched,
      exactMatches: t.exactMatches,
      precision: t.readings ? t.matched / t.readings : 1,
      recall: t.labels ? t.matched / t.labels : 1,
      exact: union ? t.exactMatches / union : 1,
      role: withRole ? (t.roleSeen ? t.roleSame / t.roleSeen : 1) : null,
    };
  };
  return {
    money: finish(totals.money, true),
    times: finish(totals.times, true),
    people: finish(totals.people, false),
    misses,
  };
}
