import { normalizeText } from '../../../understanding/text/normalise';
import { clausesOf } from '../../../understanding/text/marks';
import { opensWithNoOrHum } from '../../../understanding/readers/replies';
import {
  AGREES_TO_STEP,
  daysNamed,
  DECLINES_STEP,
  HANDS_OFF,
  NAMES_ACTION,
  NAMES_ATTENDEES,
  namesSomeoneLiving,
  livingNames,
  NAMES_DATE,
  NAMES_DAY,
  NAMES_TIME,
  namesDayBackFirst,
  namesPartOfDay,
  namesWeekdayOrTonight,
  SEND_PROMISE,
  SEND_WHEN,
  VAGUE_SPAN,
  withoutMonths,
  withoutRoutine,
  withoutWellWishes,
} from '../../../understanding/readers/next-step';
import { AGREES, DEADLINE } from '../../../understanding/readers/speech-acts';
import { putsOff } from './closing';
import { type Turn, type Finding, has, clamp, quoteFrom } from './turns';

// ---------------------------------------------------------------- follow-up

export function detectFollowUp(turns: Turn[], firstAskIndex?: number): Finding {
  const f: Finding = { score: 0, positives: [], gaps: [], evidence: [], missteps: [] };
  // The next step is set at the end of the visit: look at the last two fifths of the turns.
  const from = Math.min(Math.floor(turns.length * 0.6), firstAskIndex ?? Infinity);
  const tail = turns.filter((t) => t.index >= from);
  const rep = tail.filter((t) => t.role === 'user');
  let day = false;
  let date = false;
  let time = false;
  let attendees = false;
  let someoneNamed = false;
  let known: string[] | undefined;
  const callNames = () =>
    livingNames(turns.map((x) => ({ text: x.text, speaker: x.role === 'user' ? 'rep' : 'homeowner' })));
  let action = false;
  let vague = false;
  let agreed = false;
  let best: Turn | undefined;
  let bestPoints = 0;
  let sendPromise = false;
  let handOff = false;
  let deadlineStep = false;
  let sendUndated = false;
  for (const t0 of rep) {
    const t = { ...t0, norm: withoutWellWishes(withoutRoutine(t0.text, t0.norm)) };
    if (has(SEND_PROMISE, t.norm)) {
      sendPromise = true;
      if (!has(SEND_WHEN, t.norm)) sendUndated = true;
    }
    if (has(HANDS_OFF, t.norm)) handOff = true;
    // A day in a deadline pitch, or one the homeowner turned down, is not a next step.
    const answer = turns.slice(t.index + 1, t.index + 3).find((x) => x.role === 'assistant');
    // "Tomorrow works. But I'm not signing anything." agrees to the visit and refuses only the
    // contract: a reply that opens by agreeing, or names the rep's day back, is not a decline.
    const declined =
      !!answer &&
      DECLINES_STEP.test(answer.norm) &&
      !AGREES.test(answer.norm) &&
      !namesDayBackFirst(t.norm, answer.norm);
    // ...unless the homeowner takes the day ("I'll call Thursday, before it ends." "Alright."): a
    // bare day at best, since it only chases the deadline.
    // The day must sit in its own clause, not be the deadline ("that Tuesday slot will be gone").
    const chasing = has(DEADLINE, t.norm);
    const freeDay = clausesOf(t.text).some(
      (c) => has(NAMES_DAY, normalizeText(c)) && !has(DEADLINE, normalizeText(c)),
    );
    if (
      declined ||
      (chasing && !(freeDay && answer && has(AGREES_TO_STEP, answer.norm) && !opensWithNoOrHum(answer.norm)))
    )
      continue;
    if (chasing) deadlineStep = true;
    // "Sometime next week" hedges a span of days: it is not a day for the next step.
    const dayNorm = has(NAMES_DATE, t.norm) ? t.norm : withoutMonths(t.norm);
    const d = has(NAMES_DAY, dayNorm) && !(has(VAGUE_SPAN, t.norm) && !namesWeekdayOrTonight(t.norm));
    const dt = d && has(NAMES_DATE, t.norm);
    const tm = has(NAMES_TIME, t.norm) || (d && namesPartOfDay(t.norm) && has(NAMES_TIME, t.norm));
    const at = has(NAMES_ATTENDEES, t.norm) && d;
    const ac = has(NAMES_ACTION, t.norm);
    day ||= d;
    date ||= dt;
    time ||= tm;
    attendees ||= at || (has(NAMES_ATTENDEES, t.norm) && (day || time));
    if (d || tm) someoneNamed ||= namesSomeoneLiving(t.text, (known ??= callNames()));
    action ||= ac;
    if (has(VAGUE_SPAN, t.norm)) vague = true;
    if (d || tm) {
      if (answer && has(AGREES_TO_STEP, answer.norm) && !opensWithNoOrHum(answer.norm)) agreed = true;
    }
    const pts = (d ? 2 : 0) + (tm ? 2 : 0) + (at ? 2 : 0) + (ac ? 1 : 0) + (dt ? 1 : 0);
    if (pts > bestPoints) {
      bestPoints = pts;
      best = t;
    }
  }
  // The homeowner naming the rep's day back ("Thursday, I guess") agrees to it too.
  const repDays = new Set(rep.flatMap((t) => daysNamed(t.norm)));
  if (
    tail.some(
      (t) =>
        t.role === 'assistant' &&
        daysNamed(t.norm).some((d) => repDays.has(d)) &&
        !DECLINES_STEP.test(t.norm) &&
        !putsOff(t),
    )
  )
    agreed = true;
  let score: number;
  if (day || time) {
    score =
      5 +
      (time ? 1.5 : 0) +
      (attendees ? 1.5 : 0) +
      (agreed ? 1.5 : 0) +
      (action ? 0.5 : 0) +
      (date ? 0.5 : 0);
    if (!agreed) score = Math.min(score, 6);
    if (!attendees || !time) score = Math.min(score, 7);
    if (deadlineStep) score = Math.min(score, 6);
  } else {
    // A send with no "when", hedged by a "sometime" call, is as loose as the call itself.
    if (
      sendPromise &&
      sendUndated &&
      vague &&
      !rep.some((t) => has(SEND_PROMISE, t.norm) && has(SEND_WHEN, t.norm))
    )
      sendPromise = false;
    score = sendPromise ? 5 : vague ? 2 : action ? 3 : 1;
  }
  if (handOff && !day && !time) score = Math.min(score, sendPromise ? 5 : 2);
  f.score = clamp(score);
  f.signals = {
    day: day ? 1 : 0,
    date: date ? 1 : 0,
    time: time ? 1 : 0,
    attendees: attendees ? 1 : 0,
    action: action ? 1 : 0,
    agreed: agreed ? 1 : 0,
    vague: vague ? 1 : 0,
    sendPromise: sendPromise ? 1 : 0,
    handOff: handOff ? 1 : 0,
    deadlineStep: deadlineStep ? 1 : 0,
  };
  if (best)
    f.evidence.push({
      quote: quoteFrom(best, NAMES_DAY),
      turn: best.index,
      strength: 0.3 + bestPoints / 16,
      label: 'set the next step',
    });
  else {
    const v = rep.find((t) => has(VAGUE_SPAN, t.norm));
    if (v)
      f.missteps.push({
        quote: quoteFrom(v, VAGUE_SPAN),
        turn: v.index,
        strength: 0.6,
        label: 'vague follow-up',
      });
  }
  const parts = [
    day && 'a day',
    time && 'a time',
    attendees && 'who attends',
    action && 'what happens next',
  ].filter(Boolean) as string[];
  if (parts.length) f.positives.push(`named ${parts.join(', ')}`);
  if (agreed && (day || time)) f.positives.push('the homeowner agreed to it');
  if (!day) f.gaps.push('no day for the next step');
  if (day && !time) f.gaps.push('a day but no time');
  if ((day || time) && !attendees && !someoneNamed) f.gaps.push('nothing about who will be there');
  if ((day || time) && !agreed) f.gaps.push('the homeowner never agreed to it');
  if (vague && !day) f.gaps.push('leaving it open is not a next step');
  return f;
}
