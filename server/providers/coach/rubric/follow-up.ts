import { looseContractions as loose, normalizeText } from '../../../understanding/text/normalise';
import { AGREES, DEADLINE } from '../../../understanding/readers/speech-acts';
import { type Turn, type Finding, has, clamp, quoteFrom } from './turns';

// ---------------------------------------------------------------- follow-up

const DAY = loose(
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week|this week|weekend|january|february|march|april|may|june|july|august|september|october|november|december)\b/,
);
const DATE = loose(
  /\b(the )?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty[ -]\w+th|thirtieth|\d{1,2}(st|nd|rd|th))\b/,
);
// A number read as money ("at eleven four", "six twenty a month") is not a time.
const TIME = loose(
  /\b(\d{1,2}(:\d\d)? ?(a ?m|p ?m)\b|\d{1,2}:\d\d|at (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2})\b|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[ -](thirty|fifteen|forty[ -]five|oclock|o clock)|noon|(ten|nine|eight|\w+) (a m|p m|am|pm|in the morning|in the evening|in the afternoon)|around (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2}))\b(?! (hundred|thousand|grand|dollars|bucks|percent|years|minutes|windows|squares|one|two|three|four|five|six|seven|eight|nine)\b| (\w+ )?(a|per) (month|year|week)\b)/,
);
/**
 * A span instead of a day: "sometime", "in a few days", "later this week", "in a week or two",
 * "over the next couple of days". It names no moment anyone can agree to.
 */
const VAGUE = loose(
  /\b(sometime|some time|at some point|down the road|go from there|be in touch|touch base|reach out|circle back|whenever|in (a|the next) (few|couple)( of)? (days|weeks)|in (a|one) (day|week) or (two|so)|in (a|the) (day|week) or (two|so)|(later|early|earlier) (this|next|in the) (week|month)|(end|middle|start) of (the|this|next) (week|month)|(next|this) week or (so|two)|over the next (few|couple)( of)? (days|weeks)|a few days|couple (of )?days|one of these days)\b/,
);
/** A month with no date in it ("before March", "in April") is a horizon, not a day. */
const MONTH = /\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/g;
const ATTENDEES = loose(
  /\b((you|me|i) and (\w+)|(\w+) and (me|i|you)|both of you|you both|with you (at home|home|there|here)|to let (the crew|us|them|the installers) in|(wife|husband|partner|\w+) (s|is|are)? ?(there|home) too|make sure (\w+) (is|s|are) there|it ll be me|itll be me|(project manager|advisor|installer|estimator|manager|technician)[\w ]{0,20}(comes?|will come|ll come|out))\b/,
);
const ACTION = loose(
  /\b(i ll|ill|i will|we ll|well|i m going to|im going to) (email|text|send|bring|drop|call|come|swing|leave|have)\b|\b(comes? out|final measure|load calc\w*|inspection|paperwork|contract|drawing|confirmation)\b/,
);
const AGREE = loose(
  /\b(sounds good|works|good|fine|sure|okay|ok|yes|yeah|see you|we re both home|were both home|home by|alright)\b/,
);

// "I didn't say yes to Monday" refuses the day it names; "I need to talk to my husband first"
// puts it off.
const FU_DECLINE = loose(
  /^((um|uh|well|oh) )*no\b|\bnot (booking|signing|interested)\b|\bif i want you\b|\b(didn t|didnt|did not|never|haven t|havent|have not) (say|said|agree\w*|book\w*|want\w*)\b|\b(need|have|got|want) to (talk|check|speak) (to|with) (my|our)\b/,
);
/**
 * A parting wish about the homeowner's own plans ("good luck this weekend", "have a great
 * Saturday", "enjoy the rest of your week") names a day that belongs to them, not a next step.
 */
const WELL_WISH = loose(
  /\b(good luck|best of luck|have (a|an) (\w+ )?(good|great|nice|lovely|fun|wonderful|safe|relaxing|happy)|enjoy (your|the)( rest of (your|the))?)( \w+){0,4}? (weekend|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)\b/g,
);
/**
 * A routine of the job once it runs ("texts you every Friday", "on Mondays the crew...", "each
 * morning", "weekly check-ins on Tuesdays") describes the work, not a next step anyone set.
 */
const RECURRING =
  /\b(every|each|every other) (monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekday|morning|evening|afternoon|day)\b|\b(mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekly|daily)\b/;
/** When a promised send arrives: "tonight", "today", "by tomorrow morning", "within the hour". */
const SEND_WHEN = loose(
  /\b(tonight|today|this (afternoon|evening|morning)|by (tomorrow|the morning|end of (the )?day|noon|tonight)|within the hour|in an hour|first thing|right away|as soon as (i|we) (get|m|am) (back|home|to the (office|truck|car)))\b/,
);
const DAY_WORD = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)\b/g;
/** A concrete thing the rep will send, one-sided but real ("I'll email you the quote tonight"). */
const SEND_PROMISE = loose(
  /\b(i ll|ill|i will|we ll|well) (email|send|text|drop off|mail) (you |over |it |them )?(the |a |an |our |over |it )?(\w+ ){0,3}(quote|paperwork|estimate|proposal|agreement|contract|numbers|sheet|details|photos|references|info|link|application|form|brochure|specs|pricing|order|summary|write ?up|report)\b|\b(i|we|i ll|ill|we ll|i will|we will|i m going to|im going to|we re going to) (email|send|text|mail) (it|that|this|them|everything|the whole thing) (to you|over|your way|through)\b|\b(you ll|youll|you will|you should) (have|get|see|find|receive) (it|that|them|everything|the \w+|a \w+)( \w+){0,2} (in your (inbox|email|mailbox|mail|texts)|by (email|text|mail))\b/,
);
/** Leaves the next move to the homeowner. */
const HAND_OFF = loose(
  /\b(you ve got my card|youve got my card|if you change your mind|(give|shoot) (us|me) a (call|text|ring)|call (us|me) (whenever|when you re ready|if)|whenever you re ready|whenever youre ready|at some point|check back)\b/,
);

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
    const routine = t0.text.split(/[.,;!?]/).filter((c) => RECURRING.test(normalizeText(c)));
    const norm0 = routine.length
      ? normalizeText(
          t0.text
            .split(/[.,;!?]/)
            .filter((c) => !RECURRING.test(normalizeText(c)))
            .join('. '),
        )
      : t0.norm;
    const t = { ...t0, norm: norm0.replace(WELL_WISH, ' ') };
    if (has(SEND_PROMISE, t.norm)) {
      sendPromise = true;
      if (!has(SEND_WHEN, t.norm)) sendUndated = true;
    }
    if (has(HAND_OFF, t.norm)) handOff = true;
    // A day in a deadline pitch, or one the homeowner turned down, is not a next step.
    const answer = turns.slice(t.index + 1, t.index + 3).find((x) => x.role === 'assistant');
    // "Tomorrow works. But I'm not signing anything." agrees to the visit and refuses only the
    // contract: a reply that opens by agreeing, or names the rep's day back, is not a decline.
    const declined =
      !!answer &&
      FU_DECLINE.test(answer.norm) &&
      !AGREES.test(answer.norm) &&
      !(t.norm.match(DAY_WORD) ?? []).some((d) => new RegExp(`^(\\w+ ){0,2}${d}\\b`).test(answer.norm));
    // ...unless the homeowner takes the day ("I'll call Thursday, before it ends." "Alright."): a
    // bare day at best, since it only chases the deadline.
    // The day must sit in its own clause, not be the deadline ("that Tuesday slot will be gone").
    const chasing = has(DEADLINE, t.norm);
    const freeDay = t.text
      .split(/[.,;!?]/)
      .some((c) => has(DAY, normalizeText(c)) && !has(DEADLINE, normalizeText(c)));
    if (
      declined ||
      (chasing &&
        !(freeDay && answer && has(AGREE, answer.norm) && !/^(no|mm|mhm|mm hm)\b/.test(answer.norm)))
    )
      continue;
    if (chasing) deadlineStep = true;
    // "Sometime next week" hedges a span of days: it is not a day for the next step.
    const dayNorm = has(DATE, t.norm) ? t.norm : t.norm.replace(MONTH, '');
    const d =
      has(DAY, dayNorm) &&
      !(
        has(VAGUE, t.norm) &&
        !/\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)\b/.test(t.norm)
      );
    const dt = d && has(DATE, t.norm);
    const tm =
      has(TIME, t.norm) || (d && /\b(morning|afternoon|evening)\b/.test(t.norm) && has(TIME, t.norm));
    const at = has(ATTENDEES, t.norm) && d;
    const ac = has(ACTION, t.norm);
    day ||= d;
    date ||= dt;
    time ||= tm;
    attendees ||= at || (has(ATTENDEES, t.norm) && (day || time));
    action ||= ac;
    if (has(VAGUE, t.norm)) vague = true;
    if (d || tm) {
      if (answer && has(AGREE, answer.norm) && !/^(no|mm|mhm|mm hm)\b/.test(answer.norm)) agreed = true;
    }
    const pts = (d ? 2 : 0) + (tm ? 2 : 0) + (at ? 2 : 0) + (ac ? 1 : 0) + (dt ? 1 : 0);
    if (pts > bestPoints) {
      bestPoints = pts;
      best = t;
    }
  }
  // The homeowner naming the rep's day back ("Thursday, I guess") agrees to it too.
  const repDays = new Set(rep.flatMap((t) => t.norm.match(DAY_WORD) ?? []));
  if (
    tail.some(
      (t) =>
        t.role === 'assistant' &&
        (t.norm.match(DAY_WORD) ?? []).some((d) => repDays.has(d)) &&
        !FU_DECLINE.test(t.norm),
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
      quote: quoteFrom(best, DAY),
      turn: best.index,
      strength: 0.3 + bestPoints / 16,
      label: 'set the next step',
    });
  else {
    const v = rep.find((t) => has(VAGUE, t.norm));
    if (v)
      f.missteps.push({ quote: quoteFrom(v, VAGUE), turn: v.index, strength: 0.6, label: 'vague follow-up' });
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
  if ((day || time) && !attendees) f.gaps.push('nothing about who will be there');
  if ((day || time) && !agreed) f.gaps.push('the homeowner never agreed to it');
  if (vague && !day) f.gaps.push('leaving it open is not a next step');
  return f;
}
