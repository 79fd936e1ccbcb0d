import { findQuestions } from '../../../understanding/readers/questions';
import { normalizeText, splitSentences } from '../../../understanding/text/normalise';
import { spaceSeparated } from '../../../understanding/text/marks';
import {
  ASSENTS_RELUCTANTLY,
  negatesOrIsBusy,
  opensWithNo,
  repliesWithRepsDay,
} from '../../../understanding/readers/replies';
import { promisesToCallOnDay } from '../../../understanding/readers/next-step';
import {
  AGREES,
  BUYING_SIGNAL,
  CLOCK,
  closeActs,
  COMMIT,
  DAY as ACT_DAY,
  DEADLINE,
  DECLINES,
} from '../../../understanding/readers/speech-acts';
import { type Turn, type Finding, has, clamp, nextRep, quoteFrom, LOGISTICS } from './turns';

// ---------------------------------------------------------------- closing

const YES = AGREES;
const NO = DECLINES;

export function detectClosing(turns: Turn[]): Finding & { firstAsk?: number } {
  const f: Finding & { firstAsk?: number } = {
    score: 0,
    positives: [],
    gaps: [],
    evidence: [],
    missteps: [],
  };
  let firm = 0;
  let soft = 0;
  let trial = 0;
  let trialYes = false;
  let accepted = false;
  let refusedThenExplored = false;
  let refusedAccepted = false;
  let deadline = false;
  let missedSignal = false;
  const deadlineTurn = turns.find((t) => t.role === 'user' && DEADLINE.test(t.norm));
  if (deadlineTurn) {
    deadline = true;
    f.missteps.push({
      quote: quoteFrom(deadlineTurn, DEADLINE),
      turn: deadlineTurn.index,
      strength: 0.9,
      label: 'leaned on a deadline',
    });
  }
  turns.forEach((t, i) => {
    if (t.role === 'assistant') {
      if (has(BUYING_SIGNAL, t.norm)) {
        const reply = nextRep(turns, i);
        if (!reply || !closeActs(reply.text, reply.norm).some((a) => a.kind === 'ask')) missedSignal = true;
      }
      return;
    }
    let acts = closeActs(t.text, t.norm);
    // Recogniser output splits a long turn: read a fragment with the rep's next fragment.
    const answer = turns[i + 1]?.role === 'assistant' ? turns[i + 1] : undefined;
    // Naming the rep's day back ("Thursday at six-thirty, yeah", "Saturday's fine") takes it too.
    const dayBack =
      !!answer &&
      repliesWithRepsDay(answer.norm, t.norm) &&
      !has(NO, answer.norm) &&
      !negatesOrIsBusy(answer.norm) &&
      !putsOff(answer);
    const agreed = !!answer && ((has(YES, answer.norm) && !opensWithNo(answer.norm)) || dayBack);
    // The homeowner agreed to a day or a commitment the rep put to them: that was an ask.
    // The homeowner agreed to a day and time the rep put to them: that was an ask, whatever its form.
    if (!acts.some((a) => a.kind === 'ask') && agreed) {
      const put = splitSentences(t.text).find((s) => {
        const n = normalizeText(s);
        return ACT_DAY.test(n) && CLOCK.test(n) && !promisesToCallOnDay(n);
      });
      if (put) acts = [{ kind: 'ask', firm: true, deadline: false, sentence: put }, ...acts];
    }
    if (!acts.length) return;
    const ask = acts.find((a) => a.kind === 'ask' && a.firm) ?? acts.find((a) => a.kind === 'ask') ?? acts[0];
    if (ask.kind === 'ask') {
      if (f.firstAsk === undefined) f.firstAsk = i;
      if (ask.firm) firm++;
      else soft++;
    } else trial++;
    // After a 'no' the rep let stand, a grudging "I suppose" / "if you want" to the rep's own
    // errand (samples, a call) tolerates it; it does not take back the 'no'.
    const grudging =
      !!answer && refusedAccepted && !refusedThenExplored && has(ASSENTS_RELUCTANTLY, answer.norm);
    if (agreed && !grudging) {
      if (ask.kind === 'ask') accepted = true;
      else trialYes = true;
    }
    if (answer && !agreed && has(NO, answer.norm) && ask.kind === 'ask') {
      const after = nextRep(turns, answer.index);
      if (
        after &&
        findQuestions(after.text).some(
          (q) =>
            // Asking for another day ("can I check back Thursday?") re-asks; it does not explore the no.
            (!has(LOGISTICS, normalizeText(q.text)) || COMMIT.test(normalizeText(q.text))) &&
            !ACT_DAY.test(normalizeText(q.text)) &&
            !CLOCK.test(normalizeText(q.text)),
        )
      )
        refusedThenExplored = true;
      else refusedAccepted = true;
    }
    const quote = spaceSeparated(ask.sentence).length <= 32 ? ask.sentence.trim() : quoteFrom(t, COMMIT);
    f.evidence.push({
      quote,
      turn: i,
      strength: ask.deadline
        ? 0.1
        : ask.kind === 'ask'
          ? ask.firm
            ? agreed && !grudging
              ? 0.85
              : 0.7
            : 0.45
          : 0.4,
      label:
        ask.kind === 'trial'
          ? 'checked the fit before asking'
          : ask.firm
            ? agreed && !grudging
              ? 'asked for a firm next step and got a yes'
              : 'asked for the decision'
            : 'floated a next step',
    });
  });
  // A question put with the deadline ("it's only if we do the paperwork today. Can we do that?")
  // asks for the decision, on the deadline.
  if (deadlineTurn && !firm && !soft && findQuestions(deadlineTurn.text).length) {
    firm++;
    f.firstAsk ??= deadlineTurn.index;
  }

  let score: number;
  if (firm)
    score =
      8 +
      (accepted || refusedThenExplored ? 1 : 0) +
      (firm > 1 && (accepted || refusedThenExplored) ? 0.5 : 0);
  else if (soft) score = 5 + (accepted ? 1 : 0);
  else if (trial) score = 5 + (trialYes ? 1 : 0);
  else score = 1;
  if (refusedAccepted && !accepted && !refusedThenExplored) score = Math.min(score, 6);
  if (missedSignal) score -= firm ? 1 : 1.5;
  if (deadline) score = Math.min(score, 3);
  f.score = clamp(score);
  f.signals = {
    firm,
    soft,
    trial,
    accepted: accepted ? 1 : 0,
    refusedThenExplored: refusedThenExplored ? 1 : 0,
    refusedAccepted: refusedAccepted ? 1 : 0,
    deadline: deadline ? 1 : 0,
    missedSignal: missedSignal ? 1 : 0,
  };
  if (firm) f.positives.push('asked directly for a decision or a firm next step');
  else if (soft) f.positives.push('floated a next step without pinning it down');
  if (trial) f.positives.push('checked the fit with a trial close');
  if (accepted) f.positives.push('got a yes');
  if (refusedThenExplored) f.positives.push("asked what was holding them back after a 'no'");
  if (!firm && !soft)
    f.gaps.push(
      trial
        ? 'checked the fit but never asked for the decision or a next step'
        : 'never asked for the sale or a next step',
    );
  if (soft && !firm) f.gaps.push('the ask was too soft to commit anyone: no day, no decision');
  if (missedSignal) f.gaps.push('missed the homeowner asking what happens next');
  if (deadline) f.gaps.push('leaned on a deadline instead of the value');
  if (refusedAccepted && !accepted && !refusedThenExplored)
    f.gaps.push("took the first 'no' without finding out what was holding them back");
  return f;
}

/**
 * The shared reading hears the reply turn the day down or put it off ("Saturday... Javier works
 * Saturdays. I'd have to ask them."), and nothing in it agrees: naming the day back is no yes.
 */
export function putsOff(reply: Turn): boolean {
  return (
    (reply.acts.includes('decline') || reply.acts.includes('defer')) && !reply.acts.includes('agreement')
  );
}
