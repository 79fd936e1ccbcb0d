import { invitable, type CallFacts, type Evidence, type PersonFact } from '../../../understanding/call-facts';
import { isSpanDay } from '../../../understanding/entities';
import { quotable, readsClearly } from '../../../understanding/text/quote';
import type { CallView } from '../rubric/view';
import type { Grounded } from './template';

/**
 * The values a coaching line may name, each read from the call facts with its evidence. A value
 * that is not in the facts, or not clean enough to say back (a long clause, a garbled span), is
 * null, and the line that needed it falls back to neutral wording.
 */

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const list = (xs: string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

/** The homeowner by name: the role-play's persona, else the name the rep addressed them by. */
export function homeowner(facts: CallFacts, view: CallView): Grounded | null {
  if (view.name) {
    const said = facts.turns.flatMap((t) =>
      t.entities.people
        .filter((p) => p.name?.toLowerCase() === view.name.toLowerCase())
        .map((p): Evidence => ({
          turn: t.index,
          speaker: t.speaker,
          start: p.start,
          end: p.end,
          text: p.text,
        })),
    );
    return { value: view.name, evidence: said.slice(0, 1) };
  }
  return null;
}

/** The homeowner's problem as a short phrase of its kind ("the leak"). */
export function problem(facts: CallFacts): Grounded | null {
  return facts.problem ? { value: facts.problem.phrase, evidence: [facts.problem.evidence] } : null;
}

/** The next step the homeowner agreed to, in the words it was put ("Thursday at ten"). */
export function agreedWhen(facts: CallFacts, view: CallView): Grounded | null {
  const step = facts.agreedStep;
  // A bare hour ("about four") or a same-day span may be when something else happens (the heat
  // back on, an email sent tonight): only a named day is said back as the agreed step.
  if (!step || !step.day || isSpanDay(step.day)) return null;
  const words = step.evidence.text.trim();
  if (words.split(' ').length > 6 || (view.recognition === 'basic' && !readsClearly(words, 1))) return null;
  return {
    value: cap(words),
    evidence: [step.evidence, ...(step.answerEvidence ? [step.answerEvidence] : [])],
  };
}

/** How a coaching line names a person: their name, or "your daughter" as the homeowner put it. */
function personName(p: PersonFact): string | null {
  if (p.name) return p.name;
  const said = p.evidence.find((e) => e.speaker === 'homeowner')?.text.toLowerCase() ?? '';
  for (const own of ['my ', 'our ']) if (said.startsWith(own)) return `your ${said.slice(own.length)}`;
  return null;
}

/** The words a person was named by: their name where it was said, and the homeowner's mention. */
function namedIn(p: PersonFact): Evidence[] {
  const byName = p.name ? p.evidence.filter((e) => e.text.toLowerCase().includes(p.name!.toLowerCase())) : [];
  const byHomeowner = p.evidence.filter((e) => e.speaker === 'homeowner').slice(0, 1);
  return [...new Set([...byName.slice(0, 1), ...byHomeowner])];
}

/** The people a next step may include: alive, and in the home or part of the decision. */
export function invitees(facts: CallFacts): Grounded | null {
  // Named people only when anyone was named: an unnamed "your wife" beside "Ruth" may be Ruth.
  const all = facts.people.filter(invitable).filter((p) => personName(p));
  const people = all.some((p) => p.name) ? all.filter((p) => p.name) : all;
  if (!people.length) return null;
  return {
    value: list(people.slice(0, 2).map((p) => personName(p)!)),
    evidence: people.slice(0, 2).flatMap((p) => namedIn(p)),
  };
}

/** The one person the homeowner named as part of the decision, if there is one. */
export function decider(facts: CallFacts): Grounded | null {
  const p = facts.people.find((x) => invitable(x) && x.decides && personName(x));
  if (!p) return null;
  return { value: personName(p)!, evidence: namedIn(p) };
}

/** The prices the rep laid out, as said ("twenty-four hundred dollars and eleven thousand five hundred"). */
export function prices(facts: CallFacts): Grounded | null {
  // More than three figures read as options is more likely a rebate or a part's estimate among
  // them than four options: the advice then names none rather than the wrong three.
  if (facts.offers.length < 2 || facts.offers.length > 3) return null;
  const shown = facts.offers;
  // Each figure in quotes, as said: two figures side by side never read as one range.
  return {
    value: list(shown.map((o) => `"${o.price.evidence.text}"`)),
    evidence: shown.map((o) => o.price.evidence),
  };
}

/** Words the homeowner said in a turn near `turn`, to quote back, when they read clearly enough. */
export function homeownerWords(
  said: string | undefined,
  turn: number,
  facts: CallFacts,
  view: CallView,
): Grounded | null {
  if (!said) return null;
  const q = quotable(said, 14);
  const bare = q.endsWith('...') ? q.slice(0, -3) : q;
  for (const t of facts.turns.slice(Math.max(0, turn - 3), turn + 1).reverse()) {
    if (t.speaker !== 'homeowner') continue;
    const at = t.text.indexOf(bare);
    if (at < 0 || (view.recognition === 'basic' && !readsClearly(bare))) continue;
    return {
      value: q,
      evidence: [{ turn: t.index, speaker: 'homeowner', start: at, end: at + bare.length, text: bare }],
    };
  }
  return null;
}

/** A line of the rep's to quote back, when it reads clearly enough. */
export function repLine(
  e: { quote: string; turn: number } | undefined,
  facts: CallFacts,
  view: CallView,
  max = 16,
): Grounded | null {
  if (!e) return null;
  const turn = facts.turns[e.turn];
  if (!turn || turn.speaker !== 'rep') return null;
  const q = quotable(e.quote, max);
  const bare = q.endsWith('...') ? q.slice(0, -3) : q;
  const at = turn.text.indexOf(bare);
  if (at < 0 || (view.recognition === 'basic' && !readsClearly(bare))) return null;
  return {
    value: q,
    evidence: [{ turn: turn.index, speaker: 'rep', start: at, end: at + bare.length, text: bare }],
  };
}
