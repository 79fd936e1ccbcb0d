/**
 * Entities: the amounts of money, days and times, and people a line of conversation names,
 * read in one place for the homeowner engine, the coach and the metrics. Pure functions over a
 * string (no Node built-ins), fast enough to run on every utterance.
 */
export { findMoney } from './money';
export { findTimes, isSpanDay } from './times';
export { findPeople } from './people';
export { scoreEntities, type EntityScores, type LabelledLine, type TypeScore } from './eval';
export type {
  DayPart,
  Entities,
  EntityContext,
  MoneyEntity,
  MoneyPer,
  MoneyRole,
  PersonEntity,
  Relation,
  Span,
  TimeEntity,
  TimeRole,
} from './types';

import { findMoney } from './money';
import { findPeople } from './people';
import { findTimes } from './times';
import type { Entities, EntityContext } from './types';

/** Every entity in a line. */
export function findEntities(text: string, ctx: EntityContext = {}): Entities {
  return { money: findMoney(text, ctx), times: findTimes(text, ctx), people: findPeople(text, ctx) };
}
