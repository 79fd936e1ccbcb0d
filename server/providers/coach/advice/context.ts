import type { CallFacts } from '../../../understanding/call-facts';
import type { Analysis, Finding } from '../rubric/detectors';
import type { CallView } from '../rubric/view';
import { agreedWhen, decider, homeowner, invitees, prices, problem } from './slots';
import type { Grounded, Rendered, Values } from './template';

/** What a section's advice is written from: the finding, the call's facts and how to speak of it. */
export interface AdviceContext {
  a: Analysis;
  f: Finding;
  facts: CallFacts;
  view: CallView;
  score: number;
  stage: string;
  /** Grounded values every section may use. */
  values: Values & {
    who: Grounded | string;
    problem: Grounded | null;
    when: Grounded | null;
    invitees: Grounded | null;
    decider: Grounded | null;
    prices: Grounded | null;
    thing: string;
  };
}

export type Advise = (ctx: AdviceContext) => Rendered;

/** What the job is about, by trade, for lines that need a noun ("the roof"). */
const THING: Record<string, string> = {
  Windows: 'the windows',
  HVAC: 'the system',
  Roofing: 'the roof',
  Flooring: 'the floors',
  General: 'the project',
};

export function adviceContext(
  a: Analysis,
  f: Finding,
  facts: CallFacts,
  view: CallView,
  score: number,
  stage: string,
): AdviceContext {
  return {
    a,
    f,
    facts,
    view,
    score,
    stage,
    values: {
      who: homeowner(facts, view) ?? view.who,
      problem: problem(facts),
      when: agreedWhen(facts, view),
      invitees: invitees(facts),
      decider: decider(facts),
      prices: prices(facts),
      thing: THING[stage] ?? THING.General,
    },
  };
}

/** A signal the detector counted (0 when it did not count it). */
export const sig = (f: Finding, name: string) => f.signals?.[name] ?? 0;
