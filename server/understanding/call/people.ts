import type { PersonEntity, Relation } from '../entities';
import { does } from '../utterance';
import { spanOf } from './evidence';
import type { CallTurn, PersonFact, ProposalFact } from './types';

/** Relations that name the rep, the homeowner or another company's people, not the household. */
const NOT_THIRD_PARTY = new Set<Relation>(['self', 'addressee', 'contractor', 'colleague']);
/** Relations that live in the home with the homeowner. */
const HOUSEHOLD = new Set<Relation>(['spouse', 'partner']);
/** Relations a coaching line can name without a name ("your daughter"). */
const FAMILY = new Set<Relation>([
  'spouse',
  'partner',
  'child',
  'parent',
  'sibling',
  'grandchild',
  'relative',
]);

const sameName = (a: string | null, b: string | null) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

function keyOf(p: PersonEntity, known: PersonFact[]): PersonFact | undefined {
  if (p.name) return known.find((k) => sameName(k.name, p.name));
  // An unnamed relation ("my husband") is the one person of that relation already known.
  const same = known.filter((k) => k.relation === p.relation);
  return same.length === 1 ? same[0] : undefined;
}

/**
 * Whether a homeowner's line gives the people it names a part in the decision: it says so, puts
 * the decision off for them, or answers the rep's question about who decides.
 */
const decidingLine = (t: CallTurn, asked?: CallTurn) =>
  t.speaker === 'homeowner' &&
  (does(t.utterance, 'objection:decision') ||
    does(t.utterance, 'defer') ||
    t.entities.people.some((p) => p.decides) ||
    (asked?.speaker === 'rep' && asked.utterance.topics.includes('decision')));

function merge(into: PersonFact, p: PersonEntity, t: CallTurn, asked?: CallTurn): void {
  if (!into.name && p.name) into.name = p.name;
  if (into.relation === 'other' && p.relation !== 'other') into.relation = p.relation;
  into.deceased ||= p.status === 'deceased';
  into.namedByHomeowner ||= t.speaker === 'homeowner';
  into.decides ||= p.decides === true || decidingLine(t, asked);
  into.evidence.push(spanOf(t, p.start, p.end));
}

/** The names of the two speakers: the homeowner as addressed by the rep, the rep as introduced. */
export function speakerNames(turns: CallTurn[]): { homeownerName: string | null; repName: string | null } {
  const named = (speaker: CallTurn['speaker'], relation: Relation) =>
    turns
      .filter((t) => t.speaker === speaker)
      .flatMap((t) => t.entities.people.filter((p) => p.relation === relation && p.name))[0]?.name ?? null;
  return {
    homeownerName: named('rep', 'addressee') ?? named('homeowner', 'self'),
    repName: named('rep', 'self') ?? named('homeowner', 'addressee'),
  };
}

/**
 * The people of the call other than its two speakers, one fact per person however often named:
 * their relation, whether they have died, live in the home, or were named by the homeowner as
 * part of the decision.
 */
export function peopleOf(
  turns: CallTurn[],
  names: { homeownerName: string | null; repName: string | null },
): PersonFact[] {
  const known: PersonFact[] = [];
  for (const t of turns) {
    for (const p of t.entities.people) {
      if (NOT_THIRD_PARTY.has(p.relation)) continue;
      if (sameName(p.name, names.homeownerName) || sameName(p.name, names.repName)) continue;
      const fact = keyOf(p, known);
      const asked = turns[t.index - 1];
      if (fact) merge(fact, p, t, asked);
      else {
        const fresh: PersonFact = {
          name: p.name,
          relation: p.relation,
          deceased: false,
          household: false,
          decides: false,
          namedByHomeowner: false,
          evidence: [],
        };
        merge(fresh, p, t, asked);
        known.push(fresh);
      }
    }
  }
  for (const k of known) k.household = HOUSEHOLD.has(k.relation) && !k.deceased;
  return known;
}

/**
 * Whom a next step may name: alive, and in the home or named by the homeowner as part of the
 * decision. A widow's husband, a spelled letter, a school or the last roofer never qualifies.
 */
export function invitable(p: PersonFact): boolean {
  return (
    !p.deceased && p.namedByHomeowner && (p.household || p.decides) && (!!p.name || FAMILY.has(p.relation))
  );
}

/**
 * Someone the rep named in the next step the homeowner took ("when Dave can be here" ... "He can
 * do that") is part of it, as if the homeowner had named them in the decision.
 */
export function markNamedInAgreedStep(
  people: PersonFact[],
  step: ProposalFact | null,
  turns: CallTurn[],
): void {
  if (!step) return;
  const turn = turns[step.evidence.turn];
  for (const p of people)
    if (turn.entities.people.some((x) => !!p.name && x.name?.toLowerCase() === p.name.toLowerCase()))
      p.decides = true;
}
