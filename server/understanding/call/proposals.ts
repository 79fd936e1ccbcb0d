import type { TimeEntity } from '../entities';
import { closeActs } from '../readers/speech-acts';
import { normalizeText } from '../text/normalise';
import { does, endsVisit } from '../utterance';
import { repliesTo, sentenceAt, spanOf } from './evidence';
import type { Answer, AskFact, CallTurn, Evidence, ProposalFact } from './types';

/** Roles of a time said for a next step (not the past, a routine or a deadline). */
const STEP_ROLES = new Set<TimeEntity['role']>(['proposed', 'agreed', 'confirmed', 'other']);
const PROPOSAL_ACTS = ['proposal:firm', 'proposal:hedged', 'proposal:assumed', 'proposal:counter'];

const sameWhen = (a: Pick<TimeEntity, 'day' | 'time'>, b: Pick<TimeEntity, 'day' | 'time'>) =>
  (!!a.day && a.day === b.day) || (!!a.time && a.time === b.time);

/** What the other speaker said to a line put to them: yes, no, another day, or nothing clear. */
export function answerTo(
  turns: CallTurn[],
  i: number,
  when?: TimeEntity,
): { answer: Answer; evidence?: Evidence } {
  const [reply] = repliesTo(turns, i);
  if (!reply) return { answer: 'none' };
  const u = reply.utterance;
  const whole = spanOf(reply, 0, reply.text.length);
  // The day said back as taken ("Tomorrow works. But I'm not signing anything.") takes the day,
  // whatever else the reply refuses.
  const taken =
    when &&
    reply.entities.times.find((t) => sameWhen(t, when) && (t.role === 'agreed' || t.role === 'confirmed'));
  // "Saturday... Javier works Saturdays out at the range.": the day said back and then turned down
  // in the same reply is not taken.
  const turnedDown =
    !!when?.day && reply.entities.times.some((t) => t.role === 'declined' && t.day === when.day);
  if (taken && !turnedDown) return { answer: 'agreed', evidence: spanOf(reply, taken.start, taken.end) };
  // "I'm not promising anything for Saturday": the day named back as refused refuses it.
  const refused = reply.entities.times.find((t) => t.role === 'declined' && (!when || sameWhen(t, when)));
  if (refused && !does(u, 'proposal:counter')) return { answer: 'declined', evidence: whole };
  if (does(u, 'proposal:counter')) return { answer: 'countered', evidence: whole };
  if (does(u, 'decline') || does(u, 'defer')) return { answer: 'declined', evidence: whole };
  // "I'll put you down for Saturday. You have a good one." / "Yeah. Okay.": a nod to a rep on the
  // way out, naming no day, sees them off; it is not a yes to the booking.
  const seenOff =
    endsVisit(turns[i].utterance) &&
    reply.text.split(/\s+/).filter(Boolean).length <= 3 &&
    reply.entities.times.length === 0;
  if (does(u, 'agreement') || does(u, 'confirmation'))
    return seenOff ? { answer: 'none' } : { answer: 'agreed', evidence: whole };
  // Naming the day or time back ("Thursday at six is good") takes it, unless it refuses.
  const back = when && reply.entities.times.find((t) => sameWhen(t, when) && t.role !== 'declined');
  if (back) return { answer: 'agreed', evidence: spanOf(reply, back.start, back.end) };
  return { answer: 'none' };
}

/** Whether a turn puts a next step to the other speaker (a proposal act, or a day proposed). */
const proposes = (t: CallTurn) =>
  PROPOSAL_ACTS.some((a) => does(t.utterance, a)) || t.entities.times.some((x) => x.role === 'proposed');

/**
 * Every day or time put forward for a next step, by either speaker, with the answer it got. A day
 * in the homeowner's story ("she called you Tuesday"), a routine or a deadline is none; the rep
 * saying an agreed day back ("See you Thursday at ten") repeats it.
 */
export function proposalsOf(turns: CallTurn[]): ProposalFact[] {
  const out: ProposalFact[] = [];
  turns.forEach((t, i) => {
    if (!proposes(t)) return;
    for (const when of t.entities.times) {
      if (!STEP_ROLES.has(when.role) || (!when.day && !when.time)) continue;
      const agreedBefore = out.some((p) => p.answer === 'agreed' && sameWhen(p, when));
      if (agreedBefore) continue;
      const { answer, evidence } = answerTo(turns, i, when);
      out.push({
        by: t.speaker,
        day: when.day,
        part: when.part,
        time: when.time,
        ampm: when.ampm,
        evidence: spanOf(t, when.start, when.end),
        answer,
        ...(evidence ? { answerEvidence: evidence } : {}),
      });
    }
  });
  return out;
}

/** The next step the homeowner agreed to: the last day put to them that they took. */
export function agreedStepOf(proposals: ProposalFact[]): ProposalFact | null {
  return [...proposals].reverse().find((p) => p.answer === 'agreed') ?? null;
}

/**
 * Every ask for the decision or a next step the rep made (firm, hedged or assumed), whether it
 * leaned on a deadline ("if you sign tonight"), and the homeowner's answer to it.
 */
export function asksOf(turns: CallTurn[]): AskFact[] {
  const out: AskFact[] = [];
  turns.forEach((t, i) => {
    if (t.speaker !== 'rep') return;
    const u = t.utterance;
    // The acts, and the closing reader the acts are built on (an ask the classifier let pass).
    const closes = closeActs(t.text, normalizeText(t.text)).filter((c) => c.kind === 'ask');
    // A question put with a deadline asks for the decision on it ("only if we sign today. Can we?").
    // The deadline as the rules or the model read it: a question tied to one is an ask either way.
    const leansOnDeadline = does(u, 'pressure:deadline') || u.rules.acts.has('pressure:deadline');
    const deadlineQuestion = leansOnDeadline && u.acts.some((a) => a.startsWith('question:'));
    const firm =
      does(u, 'proposal:firm') ||
      does(u, 'proposal:assumed') ||
      closes.some((c) => c.firm) ||
      deadlineQuestion;
    if (!firm && !does(u, 'proposal:hedged') && !closes.length) return;
    const deadline = leansOnDeadline || does(u, 'pressure:discount_now') || closes.some((c) => c.deadline);
    const { answer, evidence } = answerTo(turns, i);
    const at = t.text.lastIndexOf('?');
    out.push({
      firm,
      deadline,
      evidence: at > 0 ? sentenceAt(t, at) : spanOf(t, 0, t.text.length),
      answer,
      ...(evidence ? { answerEvidence: evidence } : {}),
    });
  });
  return out;
}
