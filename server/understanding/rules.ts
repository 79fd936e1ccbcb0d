import { type ActLabel, type CorpusTopic, type EmpathyKind, type PressureKind } from './labels';
import { agreesWithClaim, ASKS_CONSENT, consentReply } from './readers/consent';
import { findPressurePhrases } from './readers/delivery';
import { saysFarewell, takesLeave } from './readers/leave-taking';
import { offersVisit, proposesDay } from './readers/proposals';
import { namesExpectedFigure, objectionKindOf, refusesFlatly, soundsRelieved } from './readers/objections';
import { pushbackKinds } from './readers/pushback';
import { findQuestions, isSmallTalk } from './readers/questions';
import {
  ABUSE,
  ACCOMMODATE,
  BUYING_SIGNAL,
  CARE,
  closeActs,
  DEADLINE,
  DISMISS,
  FEAR_PRESSURE,
  NAME_FEELING,
  RAPPORT,
  VALIDATE,
} from './readers/speech-acts';
import { analyseRepTurn, type ReadContext, type RepTurn } from './rep-turn';
import { looseContractions as loose, normalizeText } from './text/normalise';
import type { Speaker } from './types';

/**
 * The hand-written reading of one utterance: the acts and topics the readers find, before the
 * learned classifier weighs in. Every rule is a reader in readers/ or rep-turn.ts; this module only
 * maps what they find onto the corpus labels (corpus/GUIDE.md).
 */
export interface RuleReading {
  text: string;
  acts: Set<ActLabel>;
  /** Acts read by a rule precise enough to stand whatever the classifier thinks. */
  strong: Set<ActLabel>;
  topics: CorpusTopic[];
  /** The detailed read of the turn (question form, topics asked, proposal, pressure...). */
  turn: RepTurn;
  norm: string;
}

export interface RuleContext extends ReadContext {
  speaker: Speaker;
  /** The other speaker's line just before, read the same way. */
  previous?: RuleReading;
}

/** What the previous line asked for: a yes to it is agreement, not an answer. */
const ASKS_FOR_CONSENT: ActLabel[] = [
  'proposal:firm',
  'proposal:hedged',
  'proposal:assumed',
  'proposal:counter',
  'offer',
  'request',
  'check',
  'trial_close',
  'recommendation',
];

const TAG_ONLY = loose(
  /^[^?]*\b(right|huh|yeah|eh|no|isn t it|don t you think|wouldn t you say|correct)\s*\?\s*$/i,
);
const THANKS = loose(/\b(thanks|thank you|thank ya|appreciate (it|you|that|your))\b/);
const SYMPATHY = loose(
  /\b(so |very |really |truly )?sorry (for your loss|to hear|about (your|the loss|him|her)|for what you|that you)\b|\bmy condolences\b|\b(rest in peace|god rest)\b/,
);
const SHARED = loose(
  /\b(same|that) (thing )?happened (to (me|us)|at (my|our))\b|\bmy (mom|dad|mother|father|parents|wife|husband|sister|brother|grandma|grandpa|own (house|place|home)) (went|had|did|was|were|dealt)\b|\bwe (had|went through) the (same|exact same)\b|\bi ve been there\b|\bbeen there myself\b/,
);
const DEFER = loose(
  /\b(think (it|about it|this|that) over|think about it|sleep on it|let me think|need to think|talk (to|with) (my|our) \w+|talk it over|run it by|check with (my|our)|get back to (you|ya)|leave it with me|(email|send|text) (me|us) (the|a|that|your) (quote|estimate|number|numbers|price|proposal|info|details)|(we ll|well|i ll|ill) (let you know|be in touch|call you)|not (ready|sure) yet|need (some )?time|(mull|chew) (it|on it|that) over)\b/,
);
const DECLINE_CORE = loose(
  /^((um|uh|oh|well|yeah|nah|sorry) )*(no|nope|nah|no thanks|no thank you|pass|i ll pass|we ll pass|not interested|absolutely not|not a chance|not happening|no way)\b|\b(doesn t|doesnt|does not|won t|wont|will not|wouldn t|wouldnt|can t|cant|cannot) (work|do)\b( for (me|us))?|\b(not|never) (signing|booking|buying|doing (it|that|this|anything))\b|\b(i d|id|we d|wed) rather (you )?(not|didn t|didnt)\b|\bnot (today|tonight|right now)\b|\bnot (for|at) (me|us|that (price|number))\b/,
);
const COUNTER = loose(
  /\b(how about|what about|could (you|we) do|can (you|we) do|would|instead|rather|better|works better)\b[^.?!]{0,40}\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|morning|afternoon|evening|weekend|next week|instead)\b/,
);
/**
 * Talking as if a step was settled: "see you Thursday then", "so that's you booked", "we're booked
 * for Wednesday, right?", "I'll write down the day we've agreed", and the booking acted on as made:
 * "I'm sending the order in", "I'll jot the date on my card", "ill text u the confirmation".
 */
const ASSUMED = loose(
  /\b(see you|i ll see you|we ll see you|i ll be (back|here|there)|we ll be (back|here|there)|i ll put you down|i ve put you down|i ll book (you|it)|i ll get you (booked|scheduled|on))\b[^.?!]{0,40}\b(then|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|for)\b|\b(we re|you re|that s you|so that s you|we are|you are) (all )?(booked|set|scheduled|locked in|on the books|in the books|confirmed)\b(?! (solid|up|out|till|until|through|for (weeks|months)))|\b(the|that) (day|date|time) (we ve|we have|we) (agreed|booked|set|settled)\b|\b(i ve|i have|i) (got|put) you (down|in) for\b|\bthat s (\w+ ){0,2}(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)( (morning|afternoon|evening))?( at [a-z0-9 ]+)? then\b|\bso that s (a )?(yes|deal)\b|\b(i ll|ill|i will|let me|i m gonna|im gonna) (just )?(stick|pop|put|write|jot|pencil|slot) (that|it|you|ya|u|this|us) (in|down)(( for)? (\w+ )?(\w+day|tomorrow|thurs|tues|weds)( (at|around|about|first thing) [a-z0-9 ]{1,20}?)?| (in )?(the|my|our) (diary|calendar|book|books|system|schedule))?( then)?( (see you|and|then)\b|$)|\b(i m|im|i am|i ll|ill|i will|i m going to|im gonna|i m gonna|let me) (just )?(go ahead and )?(put|putting|send|sending|text|texting|email|emailing|write|writing|jot|jotting|pencil|penciling|pencilling|submit|submitting|lock|locking) (in |down |through |over )?(\w+ ){0,2}(paperwork|order|confirmation|booking|the day|the date|your day|your date|install date|start date)\b/,
);
/** A hazard put to the homeowner to frighten them into it: "start leaking carbon monoxide, you don't want that". */
const SCARE = loose(
  /\b(carbon monoxide|co poisoning|gas leak|fire hazard|burn the house|cave in|collapse|mold|mould|electrocut\w*)\b.{0,80}\b(you don t want|don t want that|dont want that|your (kids|family|wife|husband|grandkids)|before someone|could die|kill you|in your sleep)\b|\b(you don t want|your (kids|family)) .{0,40}\b(carbon monoxide|gas leak|fire|mold|mould)\b/,
);
/** "Just need your signature right here and twenty percent down": the paper put under their pen now. */
const SIGN_NOW = loose(
  /\b(just|all i) need (is )?(your|a) (signature|initials|john hancock|autograph)\b|\b(sign|initial) (right )?(here|there|on the line|at the bottom)( and| now)?\b|\bpen s right here\b/,
);
const OFFER = loose(
  /\b(let me|i ll|i can|i could|want me to|i will|i m going to|i d be happy to) (leave|drop|email|send|text|mail|shoot|forward|write up|put together|get you)\b/,
);

/** Pressure by kind, read from the words that carry it. */
function pressureKinds(norm: string, turn: RepTurn): PressureKind[] {
  const phrases = findPressurePhrases(norm);
  const deadline = DEADLINE.test(norm);
  const fear = FEAR_PRESSURE.test(norm);
  if (!turn.pressure && phrases.length === 0 && !deadline && !fear) return [];
  const kinds = new Set<PressureKind>();
  if (/\b(neighbou?rs?|next door|across the street|down the street|on your street|everybody on)\b/.test(norm))
    kinds.add('social');
  if (
    /\b(only|one|last|single) (slot|spot|opening|crew|day)|booked (solid|up)|wants? (that|the|this) (slot|spot)\b/.test(
      norm,
    )
  )
    kinds.add('scarcity');
  if (/\b(day off|drove|commission|out of my (own )?pocket|meet me halfway|for you guys)\b/.test(norm))
    kinds.add('guilt');
  if (
    /\b(knock|take|drop|cut|shave|discount|off)\b/.test(norm) &&
    /\b(today|tonight|right now|sign|before i (leave|go))\b/.test(norm)
  )
    kinds.add('discount_now');
  if (deadline || /\b(midnight|expires?|ends?|gone|goes up|go up|last chance|limited)\b/.test(norm))
    kinds.add('deadline');
  if (fear || /\b(kids|children|family|fall|hurt|fire|collapse|ceiling|mold|sick)\b/.test(norm))
    kinds.add('fear');
  if (kinds.size === 0) kinds.add('push');
  return [...kinds];
}

function empathyKinds(norm: string, turn: RepTurn): EmpathyKind[] {
  const kinds = new Set<EmpathyKind>();
  if (SYMPATHY.test(norm)) kinds.add('sympathy');
  if (NAME_FEELING.test(norm)) kinds.add('feeling');
  if (VALIDATE.test(norm)) kinds.add('validate');
  if (CARE.test(norm) || ACCOMMODATE.test(norm)) kinds.add('care');
  if (
    SHARED.test(norm) ||
    (RAPPORT.test(norm) && /\b(happened|went through|grew up|my (mom|dad))\b/.test(norm))
  )
    kinds.add('shared');
  if (kinds.size === 0 && turn.empathy) kinds.add('feeling');
  return [...kinds];
}

/** The coach's objection kinds in the corpus's terms. */
function objectionLabel(kind: string, norm: string): ActLabel {
  switch (kind) {
    case 'price':
    case 'competitor':
    case 'trust':
    case 'need':
      return `objection:${kind}`;
    case 'time':
      return 'objection:timing';
    case 'stall':
      return /\b(wife|husband|partner|son|daughter|spouse|mom|dad|mother|father|brother|sister|him|her|they|them|boss|landlord)\b/.test(
        norm,
      )
        ? 'objection:decision'
        : 'objection:timing';
    default:
      return /\b(mess|dust|noise|loud|strangers|crew|weeks|living through|disrupt\w*|chaos|kids home|dog)\b/.test(
        norm,
      )
        ? 'objection:disruption'
        : 'objection:product';
  }
}

function questionActs(text: string, turn: RepTurn, acts: Set<ActLabel>): void {
  const found = findQuestions(text);
  if (found.length === 0 && !turn.isQuestion) return;
  if (TAG_ONLY.test(text.trim()) && found.every((q) => q.kind === 'closed')) acts.add('question:tag');
  else if (found.some((q) => q.kind === 'open') || turn.isOpenQuestion) acts.add('question:open');
  else acts.add('question:closed');
}

function closingActs(text: string, norm: string, turn: RepTurn, ctx: RuleContext, acts: Set<ActLabel>): void {
  const closes = closeActs(text, norm);
  const prevAgreed = ctx.previous?.acts.has('agreement') ?? false;
  const tagged = TAG_ONLY.test(text.trim());
  if (ASSUMED.test(norm) && !prevAgreed && (!turn.isQuestion || tagged)) acts.add('proposal:assumed');
  else if (ASSUMED.test(norm) && prevAgreed) acts.add('confirmation');
  for (const c of closes) {
    if (c.kind === 'trial') acts.add('trial_close');
    else if (!acts.has('proposal:assumed')) acts.add(c.firm ? 'proposal:firm' : 'proposal:hedged');
  }
  if (
    turn.close &&
    !acts.has('proposal:firm') &&
    !acts.has('proposal:hedged') &&
    !acts.has('proposal:assumed')
  )
    acts.add('proposal:firm');
  const previousProposed = ctx.previous && [...ctx.previous.acts].some((a) => a.startsWith('proposal:'));
  if (previousProposed && COUNTER.test(norm)) acts.add('proposal:counter');
  if (turn.asksOpinion && !acts.has('trial_close') && !turn.probesConcern) acts.add('trial_close');
  if (turn.checksBack) acts.add('check');
  if (turn.confirm && prevAgreed) acts.add('confirmation');
}

function responseActs(norm: string, text: string, ctx: RuleContext, acts: Set<ActLabel>): void {
  const prev = ctx.previous;
  const consent = prev
    ? ASKS_FOR_CONSENT.some((a) => prev.acts.has(a)) || ASKS_CONSENT.test(prev.norm)
    : false;
  const asked = prev ? [...prev.acts].some((a) => a.startsWith('question:')) : false;
  const reply = prev && consent ? consentReply(text, prev.text) : null;
  if (reply === 'counter') {
    acts.add('proposal:counter');
    if (
      DECLINE_CORE.test(norm) ||
      /\b(no good|bad|can t|cant|busy|out|booked|appointment|class|work)\b/.test(norm)
    )
      acts.add('decline');
  } else if (reply) acts.add(reply);
  else if (DEFER.test(norm)) acts.add('defer');
  else if (!consent && DECLINE_CORE.test(norm) && !asked) acts.add('decline');
  else if (prev && !consent && !asked && agreesWithClaim(text)) acts.add('agreement');
  if (asked && !reply && ctx.speaker === 'homeowner') acts.add('answer');
  if (BUYING_SIGNAL.test(norm)) acts.add('buying_signal');
}

function objectionActs(norm: string, text: string, ctx: RuleContext, acts: Set<ActLabel>): void {
  if (ctx.speaker !== 'homeowner' || soundsRelieved(norm)) return;
  const kind = objectionKindOf(norm);
  if (kind) acts.add(objectionLabel(kind, norm));
  // By meaning: what the push-back is about, however it is said.
  for (const k of pushbackKinds(text))
    if (!kind) acts.add(`objection:${k}`);
    else if (ctx.previous?.acts.has('price') && (namesExpectedFigure(norm) || refusesFlatly(text, norm)))
      acts.add('objection:price');
}

function sellingActs(turn: RepTurn, norm: string, ctx: RuleContext, acts: Set<ActLabel>): void {
  if (ctx.speaker !== 'rep') return;
  if (turn.pitch || turn.proof) acts.add('pitch');
  if (turn.options) acts.add('options');
  if (turn.recommendation) acts.add('recommendation');
  if (turn.price !== null && !(turn.isQuestion && turn.topics.includes('budget'))) acts.add('price');
  if (turn.leavesInfo || OFFER.test(norm)) acts.add('offer');
  if (turn.inspect || turn.asksRestroom) acts.add('request');
}

function socialActs(text: string, norm: string, turn: RepTurn, ctx: RuleContext, acts: Set<ActLabel>): void {
  if (turn.greeting) acts.add('greeting');
  if (takesLeave(text)) acts.add('goodbye');
  if (THANKS.test(norm)) acts.add('thanks');
  if (turn.smallTalk || findQuestions(text).some((q) => isSmallTalk(q.text))) acts.add('small_talk');
  if (turn.rude || ABUSE.test(norm)) acts.add('abuse');
  if (DISMISS.test(norm) && ctx.speaker === 'rep') acts.add('argue');
  for (const k of empathyKinds(norm, turn)) acts.add(`empathy:${k}`);
  if (ctx.speaker === 'rep') for (const k of pressureKinds(norm, turn)) acts.add(`pressure:${k}`);
}

function topicsOf(turn: RepTurn, acts: Set<ActLabel>): CorpusTopic[] {
  const topics: CorpusTopic[] = [...turn.topics];
  if (turn.claim) topics.push('insurance');
  if (turn.life) topics.push('life');
  if (turn.asksReferral) topics.push('company');
  if (turn.financing) topics.push('financing');
  if (turn.warranty) topics.push('warranty');
  if (acts.has('price')) topics.push('price');
  if ([...acts].some((a) => a.startsWith('proposal:'))) topics.push('schedule');
  return [...new Set(topics)].slice(0, 3);
}

/**
 * The acts read beyond doubt: a day put to the other person, a farewell said outright, and a
 * clear yes, no or other day given to a proposed day.
 */
function strongActs(text: string, ctx: RuleContext, acts: Set<ActLabel>): Set<ActLabel> {
  const strong = new Set<ActLabel>();
  const prev = ctx.previous;
  const answersDay = prev && proposesDay(prev.text) ? consentReply(text, prev.text) : null;
  if (answersDay === 'counter') strong.add('proposal:counter');
  else if (answersDay) strong.add(answersDay);
  else if (acts.has('proposal:assumed')) strong.add('proposal:assumed');
  else if (proposesDay(text)) strong.add('proposal:firm');
  else if (ctx.speaker === 'rep' && offersVisit(text)) strong.add('proposal:hedged');
  if (saysFarewell(text)) strong.add('goodbye');
  if (ctx.speaker === 'rep' && SCARE.test(normalizeText(text))) strong.add('pressure:fear');
  if (ctx.speaker === 'rep' && SIGN_NOW.test(normalizeText(text))) strong.add('pressure:push');
  return strong;
}

/**
 * "...the dog's scratched it to bits. Have you got pets? Kids?": a story about the trade, then a
 * question about the homeowner's own life. The question closing the turn is read on its own.
 */
function lifeAskedLast(text: string, turn: RepTurn, ctx: RuleContext): RepTurn {
  if (turn.life || !turn.isQuestion || turn.close) return turn;
  const lastStatement = Math.max(text.lastIndexOf('. '), text.lastIndexOf('! '));
  if (lastStatement < 0) return turn;
  const asked = analyseRepTurn(text.slice(lastStatement + 2), ctx);
  return asked.life ? { ...turn, life: asked.life, topics: [], domain: false, smallTalk: false } : turn;
}

/** Reads one utterance with the hand-written rules. */
export function readByRules(text: string, ctx: RuleContext): RuleReading {
  const turn = lifeAskedLast(text, analyseRepTurn(text.slice(0, 4000), ctx), ctx);
  const norm = normalizeText(text);
  const acts = new Set<ActLabel>();
  questionActs(text, turn, acts);
  closingActs(text, norm, turn, ctx, acts);
  responseActs(norm, text, ctx, acts);
  objectionActs(norm, text, ctx, acts);
  sellingActs(turn, norm, ctx, acts);
  socialActs(text, norm, turn, ctx, acts);
  const strong = strongActs(text, ctx, acts);
  for (const a of strong) acts.add(a);
  return { text, acts, strong, topics: topicsOf(turn, acts), turn, norm };
}
