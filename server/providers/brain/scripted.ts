import type { Stage } from '../../../core/stages';
import {
  AGREE_AT,
  AGREED_OTHER,
  fillWhen,
  NEVER_AGREED,
  NOT_THAT_DAY,
  RESCHEDULE,
  SPOUSE_TOO,
} from './appointments';
import {
  asksWhenFree,
  offersFallback,
  proposedWhen,
  proposedWhens,
} from '../../understanding/readers/proposals';
import { alternativesAsked, placedIn, placesAsked } from '../../understanding/readers/questions';
import { requestKind, type RequestKind } from '../../understanding/readers/requests';
import {
  asksTechnicalDetail,
  asksThingAge,
  asksWhoIsHome,
  asksWhoSomeoneIs,
  checksTheJob,
  tradesNamed,
} from '../../understanding/readers/household';
import {
  amountWords,
  contentWords,
  questionWords,
  repeatsAnEarlierQuestion,
  sameAs,
  saysItAsksAgain,
  CLAIM_DETAIL_WORDS,
  DAY_NAMES,
  deniesIt,
  LATER_WORDS,
  POINTING_WORDS,
  TOGETHER_WORDS,
  withoutInterjection,
} from '../../understanding/followups';
import {
  before,
  capitalisedNames,
  firstSentence,
  namesAny,
  opensWith,
  sentencesOf,
  sentencesWithoutMarks,
  wordsNamed,
  wordsOf,
} from '../../understanding/text/lines';
import { warmUp, type RepTurn } from '../../understanding/rep-turn';
import {
  assumesBooking,
  does,
  endsVisit,
  putsDayForward,
  understand,
  type Utterance,
} from '../../understanding/utterance';
import { LIFE_CUES } from '../../understanding/cues';
import { has, lemmatise, normalise } from '../../understanding/text/match';
import * as Lines from './lines';
import {
  fillFacts,
  PERSONA_FACTS,
  personaForCall,
  type LifeSubject,
  type ObjectionKind,
  type PersonaFacts,
  type Topic,
} from './personas';
import { Phrasebook, seededRandom, sentences } from './phrasebook';
import type { BrainConversation, BrainTurn, CallEnd, PersonaBrain } from './types';

export { AGREE_AT } from './appointments';
export { seededRandom } from './phrasebook';

/** An objection moves open (raised) -> answered (heard, not fully convinced) or accepted. */
export type ObjectionState = 'open' | 'answered' | 'accepted';

/** What the homeowner remembers and feels during one call. */
export interface HomeownerState {
  turn: number;
  trust: number;
  pressureCount: number;
  rudeCount: number;
  revealed: Set<Topic>;
  asked: Map<Topic, number>;
  objections: Map<ObjectionKind, ObjectionState>;
  proofShown: boolean;
  agreed: boolean;
  /** The day and time agreed, as the homeowner says it ("Thursday at six"). */
  agreedWhen: string | null;
  /** Answers given to either-or questions, by the pair asked: asked again, the same answer. */
  choices: Map<string, string>;
  /** Days, parts of the day and hours the homeowner offered herself ("evening", "saturday", "six"). */
  ownTimes: string[];
  /** The turn the homeowner last offered a day of their own instead of the rep's (-1: never). */
  counteredAt: number;
  /** The homeowner ended the conversation (after repeated pressure or rudeness). */
  ended: boolean;
  greeted: boolean;
  /** Set by the last reply: the call ends once that reply has been heard. */
  endCall: CallEnd | null;
  /** Topics the last reply answered (revealed, restated or deflected). */
  answered: Topic[];
  /** The rep has named a price. */
  quoted: boolean;
  /**
   * The fullest offer the rep has priced (the largest price named in a turn: a replacement, not
   * the repair beside it), weighed against the other quote so a comparison stays true.
   */
  fullPrice: number | null;
  /**
   * The lowest price offered for the same kind of job as the fullest one (within half of it: the
   * double-pane beside the triple-pane, not a repair beside a replacement), which is what a
   * homeowner sets against the other quote to say who is cheaper.
   */
  comparablePrice: number | null;
  /** The rep has put something on the table: a price, options, a recommendation. */
  offered: boolean;
  /** The content words of each question asked per topic, to tell a follow-up from a repeat. */
  questions: Map<Topic, Set<string>[]>;
  /** What the last reply was about: a household topic or a part of the homeowner's life. */
  focus: { topic?: Topic; life?: LifeSubject; claim?: true } | null;
  /** The last reply, for a question that picks it up ("when did that start?"). */
  lastReply: string;
  /** Parts of their life the homeowner has talked about. */
  lifeTold: Set<LifeSubject>;
}

const MAX_PARTS = 2;

/** Words that make an either-or question one of taste, not of fact ("would you rather..."). */
const PREFERENCE_WORDS = [
  'rather',
  'prefer',
  'leaning',
  'thinking',
  'fancy',
  'want',
  'like better',
  'go with',
  'thought about',
];

/** "{Choice}, I think." with the side chosen, capitalised where it opens the line. */
function fillChoice(line: string, choice: string): string {
  return line
    .replaceAll('{Choice}', choice.charAt(0).toUpperCase() + choice.slice(1))
    .replaceAll('{choice}', choice);
}

/** What a time the homeowner offers is made of: days and parts of the day. */
const OWN_TIME_WORDS = [
  ...DAY_NAMES.filter((d) => d !== 'today' && d !== 'tonight'),
  'weekend',
  'morning',
  'afternoon',
  'evening',
  'night',
];

/** Parts of the day a proposed time can carry. */
const DAY_PARTS = ['morning', 'afternoon', 'evening', 'night', 'lunch', 'first thing', 'noon'];

/** Words every persona's lines share: the trade's things and the home. */
const GENERIC_WORDS = new Set([
  'floor',
  'flooring',
  'heat',
  'heating',
  'hvac',
  'system',
  'unit',
  'window',
  'roof',
  'furnace',
  'house',
  'home',
  'new',
  'old',
  'thing',
  'place',
  'job',
  'work',
  'project',
  // Words of asking, not of what is asked about.
  'go',
  'say',
  'mention',
  'tell',
  'talk',
  'ask',
  'know',
  'thing',
  'lot',
  'bit',
]);

/** The words of a question that point at one detail rather than at the trade in general. */
function specific(words: Iterable<string>): Set<string> {
  return new Set([...words].filter((w) => !GENERIC_WORDS.has(w)));
}

/** Words of any answer that say nothing about what it was about. */
const CHATTER = new Set(
  'fine sure okay alright yeah honestly well right good bad version short still never much really'.split(' '),
);

/** Two ways of saying a day name the same one ("Saturday" and "Saturday morning"): the day names agree. */
function sameDay(a: string, b: string): boolean {
  const da = wordsNamed(a, DAY_NAMES).join(' ');
  const db = wordsNamed(b, DAY_NAMES).join(' ');
  return da === '' || db === '' || da === db;
}

/** Names in a persona's lines (Raj, Biscuit, Toronto): never lower-cased behind "Like I said,". */
function namesIn(f: PersonaFacts): Set<string> {
  const names = new Set<string>([f.card.name, f.household.spouseName]);
  for (const name of capitalisedNames(JSON.stringify(f))) names.add(name);
  return names;
}

/**
 * The scripted homeowner: a small dialogue manager over one persona's facts and temperament.
 * Each rep turn is classified (intents.ts); the homeowner answers the question first, from its
 * facts and only as far as trust allows, reacts to what was offered, tracks its objections,
 * agrees only when it has been earned, and ends the call on a goodbye or sustained pressure.
 */
/** How firmly a greeting must name a household topic for its question to be answered as one. */
const DOOR_TOPIC_STRENGTH = 2;

export class ScriptedConversation implements BrainConversation {
  readonly facts: PersonaFacts;
  readonly state: HomeownerState;
  private readonly style: Lines.Style;
  private readonly book: Phrasebook;
  private readonly names: Set<string>;
  /** This turn's reference: the words of the last reply, when the question picks it up. */
  private context: Set<string> | undefined;
  /** The words the question itself names ("door", "sticking"), as against the kind of answer it asks for. */
  private core: Set<string> = new Set();

  constructor(stage: Stage, seed: number) {
    // Each call says the persona's facts its own way (the same facts), and keeps to it.
    this.facts = personaForCall(PERSONA_FACTS[stage], seededRandom(seed ^ 0x5bd1e995));
    this.style = Lines.styleOf(this.facts);
    this.names = namesIn(this.facts);
    this.book = new Phrasebook(seed, (text) =>
      fillFacts(
        Lines.fillLine(text, {
          thing: Lines.THING[stage],
          spouse: this.facts.household.spouseName,
        }),
        this.facts,
      ),
    );
    this.state = {
      turn: 0,
      trust: this.facts.temperament.startTrust,
      pressureCount: 0,
      rudeCount: 0,
      revealed: new Set(),
      asked: new Map(),
      objections: new Map(),
      proofShown: false,
      agreed: false,
      agreedWhen: null,
      counteredAt: -1,
      ownTimes: [],
      choices: new Map(),
      ended: false,
      greeted: false,
      endCall: null,
      answered: [],
      questions: new Map(),
      quoted: false,
      fullPrice: null,
      comparablePrice: null,
      offered: false,
      focus: null,
      lastReply: '',
      lifeTold: new Set(),
    };
  }

  opening(): string {
    return this.book.say([this.book.pick(this.facts.openings) ?? 'Hello?']);
  }

  get finished(): boolean {
    return this.state.ended;
  }

  get endCall(): CallEnd | null {
    return this.state.endCall;
  }

  async *reply(history: BrainTurn[], opts: { signal?: AbortSignal } = {}): AsyncIterable<string> {
    const last = [...history].reverse().find((t) => t.role === 'user');
    const text = this.respond(last?.text ?? '');
    // Sentence by sentence, so speech synthesis can start on the first one.
    for (const sentence of sentencesOf(text)) {
      if (opts.signal?.aborted) return;
      yield sentence;
      await Promise.resolve();
    }
  }

  /** The homeowner's answer to one rep turn; updates the conversation state. */
  respond(repText: string): string {
    const s = this.state;
    s.turn++;
    s.answered = [];
    s.endCall = null;
    if (s.ended) {
      s.endCall = 'homeowner';
      return this.book.say([this.book.pick(["I said we're done here.", 'Please leave.', 'Goodbye.'])]);
    }
    const u = understand(repText.slice(0, 4000), {
      speaker: 'rep',
      previous: s.lastReply || undefined,
      spouseNames: [this.facts.household.spouseName],
    });
    this.heard = u;
    const t = this.turnOf(u);
    this.context = undefined;
    const parts = this.decide(t);
    if (s.answered.length > 0 && !s.focus) s.focus = { topic: s.answered[0] };
    // "And easy to clean." opens no reply.
    const first = parts.findIndex((p) => p);
    const opening = first >= 0 ? parts[first] : null;
    if (opening && opensWith(opening, ['And']) && opening.length > 4)
      parts[first] = opening[4].toUpperCase() + opening.slice(5);
    const text = this.book.say(parts, Lines.FILLERS[this.style]);
    s.lastReply = text;
    return text;
  }

  /** What the reply before this one was about (the focus a follow-up picks up). */
  private previousFocus: HomeownerState['focus'] = null;

  /** The last rep turn as the shared reading understood it. */
  private heard: Utterance | null = null;

  /** The turn's detailed read, with what it does taken from the shared reading's acts. */
  private turnOf(u: Utterance): RepTurn {
    const t = u.turn;
    const close = putsDayForward(u) || this.assumesBooking();
    const pushed = t.pressure || [...u.rules.strong].some((a) => a.startsWith('pressure:'));
    return {
      ...t,
      goodbye: endsVisit(u),
      close,
      pressure: pushed,
      offTopic: t.offTopic && !close,
    };
  }

  /**
   * The homeowner's policy, in order: what the turn obliges first (the language, rudeness, a
   * booking never agreed, pressure, a goodbye, a passing request), then asks of their own kind
   * (their life, the claim, a look), then the conversation itself (answer, react, the close).
   */
  private decide(t: RepTurn): (string | null)[] {
    return this.obligations(t) ?? this.ownAsks(t) ?? this.converse(t);
  }

  /** What the turn obliges before anything else, or null. */
  private obligations(t: RepTurn): (string | null)[] | null {
    const s = this.state;
    const f = this.facts;
    const st = this.style;
    const pick = (o: string[]) => this.book.pick(o);
    if (t.nonEnglish) return [pick(Lines.NON_ENGLISH[st])];
    if (t.words.length === 0) return [pick(Lines.NOT_CAUGHT[st])];

    if (t.rude) {
      s.rudeCount++;
      s.trust -= 2;
      if (s.rudeCount + s.pressureCount >= 2) return this.endByHomeowner(Lines.RUDE_END[st]);
      return [pick(Lines.RUDE[st])];
    }
    // A booking the homeowner never agreed to is put right before anything else.
    // A farewell said outright is answered below, the correction with it; a wrap-up only by its
    // shape ("Friday at ten it is then") is a booking stated, and the visit goes on.
    const outright = this.heard?.rules.strong.has('goodbye') ?? false;
    if (t.close && !(t.goodbye && outright) && !s.agreed && this.assumesBooking()) {
      const corrected = this.correctAssumed();
      // Pushed through anyway ("I'm putting the paperwork through right now"): a push like any other.
      if (t.pressure) {
        s.pressureCount++;
        s.trust -= 3;
        if (s.rudeCount + s.pressureCount >= 2)
          return [corrected, ...this.endByHomeowner(f.pressuredAgain, Lines.RUDE_END[st])];
      }
      return [corrected, this.closeReason()];
    }
    if (t.pressure && !s.agreed) {
      s.pressureCount++;
      s.trust -= 3;
      // "6900 installed, but only if you sign today": the push is answered, the price still heard.
      this.noteOffer(t);
      if (s.rudeCount + s.pressureCount >= 2)
        return this.endByHomeowner(f.pressuredAgain, Lines.RUDE_END[st]);
      // A scare is answered as a scare; other pushes with the owner's own line.
      if (this.heard && does(this.heard, 'pressure:fear') && !does(this.heard, 'pressure:deadline'))
        return [pick(Lines.PRESSURED_FEAR[st])];
      return [pick(f.pressured) ?? pick(Lines.RUDE[st])];
    }
    // "Thanks for having me over" in the first turns greets; later it takes leave.
    // "Thanks for having me round" in the first turns greets; a farewell said outright still leaves.
    const heard = this.heard;
    const atTheDoor =
      s.turn <= 2 &&
      !heard?.rules.strong.has('goodbye') &&
      (t.greeting ||
        (heard !== null && (does(heard, 'greeting') || namesAny(heard.text, ['having me', 'having us']))));
    if (t.goodbye && !atTheDoor) {
      s.endCall = 'goodbye';
      const answer = t.isQuestion && t.topics.length ? this.answerTopics(t).slice(0, 1) : [];
      const corrected = this.correctAssumed();
      // After "I didn't agree to Thursday", no "Yep" on the way out.
      const farewells = (pool: string[]) =>
        corrected
          ? pool.filter((l) => !opensWith(l, ['yep', 'yes', 'sure', 'great', 'good', 'see you']))
          : pool;
      return [
        ...(corrected ? [corrected] : answer),
        pick(farewells(s.agreed ? Lines.GOODBYE_AGREED[st] : Lines.GOODBYE[st])) ?? pick(Lines.GOODBYE[st]),
      ];
    }
    // At the door: a greeting is answered as one before anything else the first line says.
    const greets = t.greeting || (this.heard !== null && does(this.heard, 'greeting'));
    // A request made at the door ("where would you like me to park?") is answered below, not greeted.
    const requests = this.heard !== null && requestKind(this.heard.text) !== null;
    if (
      s.turn <= 2 &&
      !s.greeted &&
      greets &&
      !t.close &&
      !requests &&
      // "Frank, is it?", "hope now is ok??": a question at the door that only brushes a household
      // topic is part of the greeting, not a question about the house.
      (t.topics.length === 0 || !t.isQuestion || t.topicStrength < DOOR_TOPIC_STRENGTH)
    ) {
      s.greeted = true;
      s.trust += 0.5;
      const doubt = t.pitch || t.price !== null ? this.book.pick(f.pitchReaction) : null;
      return this.limit([this.book.pick(f.greeted), doubt]);
    }
    // A passing request or offer (parking, a gate code, photos, samples left, a call to the spouse)
    // gets a plain answer, whatever else the turn says.
    const plain = this.answerRequest(t);
    if (plain) return this.limit(plain);
    return null;
  }

  /** Asks of their own kind: their life, the bathroom, how to reach them, how they found us, the claim, a look. */
  private ownAsks(t: RepTurn): (string | null)[] | null {
    const s = this.state;
    const st = this.style;
    const pick = (o: string[]) => this.book.pick(o);
    // What the last answer was about: a question that picks it up ("tell me more about that",
    // "how old are they?", "when did that start?") asks about that.
    const prev = s.focus;
    this.previousFocus = prev;
    s.focus = null;
    if (
      prev?.life &&
      t.life === null &&
      !t.close &&
      !t.inspect &&
      (t.refersBack || (t.refersToPeople && t.isQuestion && t.topics.every((x) => x === 'home')))
    )
      return this.limit(this.talkAboutLife(prev.life, t));
    if (t.life) return this.limit(this.talkAboutLife(t.life, t));
    // A visitor's request: where the bathroom is, and the visit goes on.
    if (t.asksRestroom && !t.close) return [pick(Lines.RESTROOM[st])];
    // How to be reached: a preference, and the next step stands.
    if (t.asksContact) return [pick(Lines.CONTACT[st])];
    // How they came to call: the answer, asked again the detail after it, then back to the visit.
    if (t.asksReferral && !t.close) {
      const found = this.book.first(this.facts.found.map((l) => fillFacts(l, this.facts)));
      return this.limit([found, found ? null : this.book.pick(Lines.STEER[this.style])]);
    }
    // Insurance for the damage, or a follow-up on it ("when's he coming?").
    if (
      !t.close &&
      t.isQuestion &&
      (t.claim ||
        // "When's he coming out?" after the adjuster: about him, not when the job is wanted.
        (prev?.claim &&
          (t.refersBack || t.refersToPeople) &&
          t.topics.every((x) => x === 'timeline' || x === 'budget')))
    )
      return this.limit(this.talkAboutClaim(t));
    if (t.inspect) return this.limit(this.showAround(t));
    return null;
  }

  /** The conversation itself: what was asked answered, what was offered reacted to, and the close. */
  private converse(t: RepTurn): (string | null)[] {
    const s = this.state;
    const f = this.facts;
    const st = this.style;
    const pick = (o: string[]) => this.book.pick(o);
    const prev = this.previousFocus;
    if (prev?.topic && !t.close && (t.refersBack || namesAny(t.words.join(' '), POINTING_WORDS))) {
      if (t.refersBack && t.topics.length === 0) t = { ...t, topics: [prev.topic], offTopic: false };
      if (t.topics.includes(prev.topic)) this.context = this.wordsOf(s.lastReply);
    }
    if (s.agreed) return this.afterAgreement(t);

    // "What are you thinking?", "what gives you pause?": the homeowner speaks their mind about
    // what is on the table. A household question in the same turn ("what do you think is
    // causing it?", "what did you think of the engineered hardwood?") is answered as one.
    const mind =
      !t.close &&
      ((t.probesConcern && (s.offered || this.openObjection() !== undefined || t.topics.length === 0)) ||
        ((t.asksOpinion || (t.checksBack && s.offered)) && t.topics.length === 0) ||
        // "Gut reaction? Repair or replace?": asked about what was offered, when it names nothing
        // of the household firmly ("what did you think of the engineered hardwood?" does).
        (t.asksOpinion && s.offered && t.topicStrength < 2));
    // "Was it the front door or the back door?": a choice their own facts settle is answered first.
    const asked = t.isQuestion || (this.heard?.text.trim().endsWith('?') ?? false);
    // Not "what gives you pause, the number or the timing?": that asks for the worry (speakMind).
    const choice = asked && !t.close && !t.probesConcern ? this.choose() : null;

    if (mind) {
      // What was offered or answered in the same breath gets its reaction; a "totally fair"
      // before the question does not need a thank-you.
      const reactions = this.react(t);
      const weighed = t.price !== null || t.options || t.proof || t.financing || t.addresses.length > 0;
      // "Which way are you leaning, repair or replace?": the choice is their mind on it.
      const mindLine = choice ? choice.line() : this.speakMind(t);
      return this.limit([...(weighed ? reactions.slice(0, 1) : []), mindLine]);
    }

    if (choice?.grounded) return this.limit([choice.line()]);

    // 1. Answer what was asked.
    const answer: (string | null)[] = [];
    // A proposal ("could I come Saturday when your wife is home?") is answered as a proposal.
    if (t.topics.length > 0 && !t.close && (t.isQuestion || t.words.length <= 8))
      answer.push(...this.answerTopics(t));
    else if (t.invite) answer.push(this.openConcernLine() ?? pick(Lines.REACT.invite));
    else if (t.smallTalk && !t.close && !(t.greeting && !s.greeted)) answer.push(...this.smallTalk());
    else if (t.offTopic && !t.close && t.domain) answer.push(pick(Lines.DONT_KNOW[st]));
    else if (t.offTopic && !t.close) {
      answer.push(pick(Lines.OFF_TOPIC[st]), pick(Lines.STEER[st]));
      if (st === 'wary' || st === 'hurried') s.trust -= 0.25;
    }

    // Asked to choose and no topic answered it: the choice (or not decided) comes first.
    if (answer.filter(Boolean).length === 0 && choice) answer.push(choice.line());

    // 2. React to what was offered.
    const reactions = this.react(t);

    // An impatient owner cuts a long speech with no question short.
    if (t.words.length > f.temperament.ramblingWords && !t.isQuestion && !t.close) {
      s.trust -= 0.5;
      return [pick(f.cutShort) ?? pick(Lines.STEER[st])];
    }

    // 3. A proposal of a next step, only when the turn actually proposes one.
    if (t.close && !t.offTopic)
      return this.limit([...answer, ...reactions.slice(0, 1), this.respondToClose(t)]);

    const parts = [...answer, ...reactions];
    if (parts.length === 0) {
      // The price objection answers a price; talk of prices before any quote raises nothing.
      if (t.priceTalk && s.quoted && !s.objections.has('price')) parts.push(this.raise('price'));
      else if (t.pitch && !t.isQuestion) parts.push(pick(f.pitchReaction));
    }
    // Objections come at fitting moments: the distrusting owner asks for proof early, the
    // others once the conversation has substance. Never on top of small talk.
    // Not when the reply already asks something, nor for a worry this very turn answers.
    const fitting = t.smallTalk || t.offTopic ? undefined : this.fittingObjection(t);
    const asks = parts.some((p) => p?.includes('?'));
    if (fitting && !t.addresses.includes(fitting)) {
      // A fact that already challenges the rep ("so what makes yours different?") voices it.
      if (asks) s.objections.set(fitting, 'open');
      else if (parts.filter(Boolean).length < MAX_PARTS) parts.push(this.raise(fitting));
    }
    if (parts.filter(Boolean).length === 0) parts.push(pick(f.nudges) ?? pick(Lines.STEER[st]));
    return this.limit(parts);
  }

  /**
   * Answers an either-or question ("vinyl plank, or real wood?", "the basement or a closet?"). When
   * the persona's own facts name one side and not the other, that side (grounded). Otherwise, a
   * preference not yet formed is said as undecided; a plain fact of the house they would know
   * (where the furnace is) is settled once, by the call's seed, and kept for the rest of the call.
   */
  private choose(): { line: () => string; grounded: boolean } | null {
    const u = this.heard;
    const pair = u ? alternativesAsked(u.text) : null;
    if (!u || !pair) return null;
    const s = this.state;
    const key = pair.join(' | ');
    const known = s.choices.get(key);
    const say = (choice: string) =>
      this.book.pick(Lines.CHOOSE[this.style].map((l) => fillChoice(l, choice))) ??
      fillChoice('{Choice}.', choice);
    // A fact of the house is said as one ("The back door."); a taste as a leaning ("Real wood, I think.").
    const said = (choice: string) =>
      this.book.pick(Lines.CHOSEN_FACT[this.style].map((l) => fillChoice(l, choice))) ??
      fillChoice('The {choice}.', choice);
    if (known) return { line: () => said(known), grounded: true };
    const facts = new Set(lemmatise(normalise(JSON.stringify(this.facts))));
    const distinct = (side: string, other: string) => {
      const theirs = new Set(contentWords(lemmatise(normalise(other))));
      return [...contentWords(lemmatise(normalise(side)))].filter(
        (w) => !theirs.has(w) && !GENERIC_WORDS.has(w) && !CHATTER.has(w),
      );
    };
    const [a, b] = pair;
    const named = (side: string, other: string) => {
      const own = distinct(side, other);
      return own.length > 0 && own.every((w) => facts.has(w));
    };
    const taste = PREFERENCE_WORDS.some((w) => u.text.toLowerCase().includes(w));
    const aNamed = named(a, b);
    const bNamed = named(b, a);
    // Settled by the facts only between two of the same thing ("the front door or the back door").
    const sameThing = a.split(' ').at(-1) === b.split(' ').at(-1) && a.includes(' ') && b.includes(' ');
    if (sameThing && aNamed !== bNamed) {
      const choice = aNamed ? a : b;
      return {
        line: () => {
          s.choices.set(key, choice);
          return taste ? say(choice) : said(choice);
        },
        grounded: true,
      };
    }
    // "Is the furnace in the basement or a closet?": where a thing is, when their facts put it in
    // one of the two places and not the other.
    const places = placesAsked(u.text);
    const factText = JSON.stringify(this.facts);
    if (!taste && places && placedIn(factText, a) !== placedIn(factText, b)) {
      const choice = placedIn(factText, a) ? a : b;
      return {
        line: () => {
          s.choices.set(key, choice);
          return said(choice);
        },
        grounded: true,
      };
    }
    // A leaning their own facts show ("a warm wood look" when asked vinyl or wood).
    if (taste && aNamed !== bNamed) {
      const leaning = aNamed ? a : b;
      return { line: () => say(leaning), grounded: false };
    }
    if (taste || aNamed || bNamed)
      return {
        line: () =>
          this.book.pick(
            Lines.NOT_CHOSEN[this.style].map((l) => l.replaceAll('{a}', a).replaceAll('{b}', b)),
          ) ?? 'Not sure yet.',
        grounded: false,
      };
    return {
      line: () => {
        const choice = this.book.pick([a, b]) ?? a;
        s.choices.set(key, choice);
        return said(choice);
      },
      grounded: false,
    };
  }

  private endByHomeowner(...pools: string[][]): (string | null)[] {
    this.state.ended = true;
    this.state.endCall = 'homeowner';
    for (const pool of pools) {
      const line = this.book.pick(pool);
      if (line) return [line];
    }
    return [null];
  }

  private afterAgreement(t: RepTurn): (string | null)[] {
    const st = this.style;
    // "So just to confirm: Thursday at seven, Mark will be home... Have I got that right?": the
    // recap is the question, whatever else it names.
    const named = this.proposedDay();
    const agreedOn = this.state.agreedWhen;
    const checkedBack = this.checkedDay();
    const recap =
      this.heard !== null &&
      (does(this.heard, 'confirmation') ||
        (checkedBack !== null && agreedOn !== null && sameDay(checkedBack, agreedOn))) &&
      (!named || (agreedOn !== null && sameDay(named, agreedOn)));
    if (t.topics.length > 0 && t.isQuestion && !recap) return this.answerTopics(t);
    // "Oh, one last thing, do you know where your gas shutoff is?": an answer, not a send-off.
    if (
      t.isQuestion &&
      !t.close &&
      this.heard &&
      namesAny(this.heard.text.toLowerCase(), ['do you know', 'where is', "where's"])
    )
      return [this.book.pick(Lines.DONT_KNOW[st])];
    // "So just to confirm: the day you picked, nine a.m., door and fan. All correct?"
    const agreedWhen0 = this.state.agreedWhen;
    if (recap) return [this.book.pick(Lines.RECAP_RIGHT[st].map((l) => fillWhen(l, agreedWhen0 ?? 'then')))];
    // "ok so that was tues right": a day checked, not a new one put forward, is set straight.
    const checked = this.checkedDay();
    if (checked && agreedWhen0) {
      const pool = sameDay(checked, agreedWhen0)
        ? Lines.AGREED_DAY[st].map((l) => fillWhen(l, agreedWhen0))
        : AGREED_OTHER[st].map((l) => fillWhen(l, checked).replaceAll('{agreed}', agreedWhen0));
      return [this.book.pick(pool)];
    }
    if (t.close) {
      const corrected = this.correctAssumed();
      if (corrected) return [corrected];
      // "And if Monday's awkward, Wednesday": the day agreed stands.
      const agreedWhen = this.state.agreedWhen;
      if (agreedWhen && this.heard && offersFallback(this.heard.text))
        return [this.book.pick(Lines.KEEP_DAY[st].map((l) => fillWhen(l, agreedWhen)))];
      // A day named after agreeing: take the rep's day.
      const when = this.proposedDay();
      if (when) this.state.agreedWhen = when;
      const moved = when ? this.book.pick(RESCHEDULE[st].map((l) => fillWhen(l, when))) : null;
      return [moved ?? this.book.pick(Lines.STILL_AGREED[st])];
    }
    if (t.confirm) return [this.book.pick(Lines.AGREED_CONFIRM[st])];
    if (t.smallTalk) return this.smallTalk().slice(0, 1);
    return [this.book.pick(Lines.AGREED_ACK[st])];
  }

  /**
   * A day the rep asks back about rather than offers ("that was Tuesday, right?", "we said
   * Monday?"): named in a question in a role other than proposed. Null when none.
   */
  private checkedDay(): string | null {
    const u = this.heard;
    if (!u || !does(u, 'question') || offersFallback(u.text)) return null;
    const named = u.entities.times.filter((x) => x.day !== null && x.role !== 'proposed');
    if (!named.length || u.entities.times.some((x) => x.role === 'proposed')) return null;
    return named[named.length - 1].text;
  }

  private smallTalk(): (string | null)[] {
    const st = this.style;
    if (st === 'friendly') this.state.trust += 0.25;
    if (st === 'wary' || st === 'hurried') this.state.trust -= 0.25;
    return [this.book.pick(Lines.SMALL_TALK[st]), this.book.pick(Lines.STEER[st])];
  }

  /** Reactions to proof, prices, options, financing, warranties, empathy and greetings. */
  private react(t: RepTurn): (string | null)[] {
    const s = this.state;
    const f = this.facts;
    const out: (string | null)[] = [];
    const pick = (o: string[]) => this.book.pick(o);
    if (t.proof) {
      // Proof counts once in full; repeating the same credentials adds little.
      s.trust += s.proofShown ? 0.5 : f.temperament.demandsProof ? 3 : 1;
      if (!s.proofShown || s.objections.get('trust') === 'open') out.push(pick(f.proofAccepted));
      else if (!t.close && !t.isQuestion) out.push(pick(Lines.PROOF_AGAIN[this.style]));
      s.proofShown = true;
      // Shown proof settles the question of trust, asked or not.
      s.objections.set('trust', 'accepted');
    }
    // An open question ("can I ask what they quoted, what's included?") asks; it answers nothing.
    const answersSomething = !t.isOpenQuestion || t.close || t.words.length > 20;
    for (const kind of answersSomething ? t.addresses : []) {
      if (kind === 'trust' || s.objections.get(kind) !== 'open') continue;
      const convinced = s.trust >= f.temperament.trustToClose - 2;
      s.objections.set(kind, convinced ? 'accepted' : 'answered');
      s.trust += 1.5;
      if (out.length === 0)
        out.push(pick(convinced ? Lines.REACT.objectionAnswered : Lines.REACT.objectionNoted));
    }
    const quotes = this.noteOffer(t);
    if (quotes && t.price !== null) {
      // Options side by side: the homeowner weighs the one within reach.
      out.push(this.reactToPrice(Math.min(...t.prices, t.price)));
    } else if (t.financing) out.push(pick(Lines.REACT.financing));
    if (t.warranty && !t.proof && out.length === 0) out.push(pick(Lines.REACT.warranty));
    if (t.leavesInfo && out.length === 0) out.push(pick(Lines.TAKES_INFO[this.style]));
    // "Let's start with the deck, what's going on there?" asks; it lays out no options.
    if (t.options && out.length === 0 && !(t.isQuestion && t.topics.length > 0))
      out.push(pick(Lines.REACT.options));
    if (t.recommendation && out.length === 0 && (t.domain || t.topics.includes('product')))
      out.push(pick(s.revealed.size >= 2 ? Lines.REACT.recommendFits : Lines.REACT.recommendEarly));
    // "Thanks for having me" at the door greets: it is answered as a greeting.
    const greets = t.greeting && !s.greeted;
    if (t.empathy) {
      s.trust += 0.75;
      if (out.length === 0 && !greets && !t.isQuestion && !t.close && !t.smallTalk) out.push(pick(f.warmed));
    }
    if (greets) {
      s.greeted = true;
      s.trust += 0.5;
      if (t.topics.length === 0 && !t.close && out.length === 0) out.push(pick(f.greeted));
    }
    return out.filter((x) => x !== null);
  }

  private reactToPrice(price: number): string | null {
    const s = this.state;
    // Below the other quote: noticed, whatever the rep called it.
    const other = this.facts.household.quoteAmount;
    if (
      other !== null &&
      (s.comparablePrice ?? s.fullPrice ?? price) < other * 0.97 &&
      !s.objections.has('competitor')
    ) {
      s.objections.set('competitor', 'answered');
      return this.book.pick(Lines.UNDER_THE_QUOTE[this.style]);
    }
    const [lo, hi] = this.facts.household.budgetRange;
    if (price > hi * 1.25) {
      s.trust -= 0.5;
      if (!s.objections.has('price')) return this.raise('price');
      return this.stillOpen('price');
    }
    if (price > hi) {
      if (!s.objections.has('price')) s.objections.set('price', 'open');
      return this.book.pick(Lines.REACT.priceOver);
    }
    if (s.objections.get('price') === 'open') s.objections.set('price', 'accepted');
    return this.book.pick(price < lo * 0.5 ? Lines.REACT.priceLow : Lines.REACT.priceFits);
  }

  private limit(parts: (string | null)[]): (string | null)[] {
    return parts.filter((p) => p !== null).slice(0, MAX_PARTS);
  }

  private openObjection(): ObjectionKind | undefined {
    for (const [kind, state] of this.state.objections) if (state === 'open') return kind;
    return undefined;
  }

  private openConcernLine(): string | null {
    const open = this.openObjection();
    if (open) return this.stillOpen(open);
    const sig = this.facts.signatureObjection;
    if (!this.state.objections.has(sig)) return this.raise(sig);
    return null;
  }

  /** The rep's price is already below the other quote: "the other company was cheaper" would be false. */
  private underTheQuote(): boolean {
    const other = this.facts.household.quoteAmount;
    const offered = this.state.comparablePrice ?? this.state.fullPrice;
    return other !== null && offered !== null && offered < other * 0.97;
  }

  /** Voices an objection for the first time; an open one is restated in other words. */
  private raise(kind: ObjectionKind): string | null {
    if (kind === 'competitor' && this.underTheQuote()) {
      this.state.objections.set(kind, 'answered');
      return this.book.pick(Lines.UNDER_THE_QUOTE[this.style]);
    }
    if (this.state.objections.get(kind) === 'open') return this.stillOpen(kind);
    if (this.state.objections.has(kind)) return null;
    this.state.objections.set(kind, 'open');
    return this.book.pick(this.facts.objections[kind]);
  }

  private stillOpen(kind: ObjectionKind): string | null {
    if (kind === 'competitor' && this.underTheQuote())
      return this.book.pick(Lines.UNDER_THE_QUOTE[this.style]);
    // The worry in words not said yet: the persona's own, else a plain restatement of it.
    return (
      this.book.pickNew(this.facts.objections[kind]) ??
      this.book.pick(Lines.STILL_OPEN[kind]) ??
      this.book.pick(this.facts.objections[kind])
    );
  }

  /**
   * Asked outright what they think or what holds them back: the worry still open, else one heard
   * but not settled, else the one they have not voiced yet; with none left, where they lean.
   */
  private speakMind(t: RepTurn): string | null {
    const s = this.state;
    const f = this.facts;
    const st = this.style;
    const open = this.openObjection();
    // "What do you think, does that sound like you?" with the spouse still to weigh in: her view of
    // what was offered, then the spouse.
    const opinionAsked = t.asksOpinion && !t.probesConcern && s.offered;
    if (open === 'spouse' && opinionAsked)
      return this.book.pick(Lines.OPINION_BUT_SPOUSE[st]) ?? this.stillOpen(open);
    if (open) return this.stillOpen(open);
    const unsettled = [...s.objections].find(([, state]) => state === 'answered')?.[0];
    if (unsettled) return this.book.pick(Lines.STILL_OPEN[unsettled]) ?? this.stillOpen(unsettled);
    if (!s.offered && !t.probesConcern) return this.book.pick(Lines.NOTHING_OFFERED[st]);
    if (f.temperament.demandsProof && !s.proofShown) return this.raise('trust') ?? this.stillOpen('trust');
    if (f.signatureObjection === 'spouse' && opinionAsked && !s.objections.has('spouse')) {
      s.objections.set('spouse', 'open');
      return this.book.pick(Lines.OPINION_BUT_SPOUSE[st]) ?? this.stillOpen('spouse');
    }
    if (!s.objections.has(f.signatureObjection)) return this.raise(f.signatureObjection);
    const leaning = s.trust >= f.temperament.trustToClose - 1;
    if (!leaning) return this.book.pick(Lines.UNDECIDED[st]);
    return this.book.pick(t.probesConcern ? Lines.NO_CONCERN[st] : Lines.LEANING[st]);
  }

  /**
   * What the turn puts on the table, remembered whatever the reply: a price quoted, options laid
   * out, a recommendation or a description of what they would put in. True when it quotes a price.
   */
  private noteOffer(t: RepTurn): boolean {
    const s = this.state;
    // "Is your budget over ten thousand?" asks; it quotes nothing.
    const quotes = t.price !== null && !(t.isQuestion && t.topics.includes('budget'));
    if (quotes || t.options || ((t.recommendation || t.pitch) && (t.domain || t.topics.includes('product'))))
      s.offered = true;
    if (quotes && t.price !== null) {
      s.quoted = true;
      // The fullest offer is what compares with the other quote.
      s.fullPrice = Math.max(...t.prices, t.price);
      const full = s.fullPrice;
      s.comparablePrice = Math.min(...[...t.prices, t.price].filter((p) => p >= full / 2));
    }
    return quotes;
  }

  private fittingObjection(t: RepTurn): ObjectionKind | undefined {
    const s = this.state;
    const f = this.facts;
    if (this.openObjection()) return undefined;
    if (f.temperament.demandsProof && !s.proofShown && !s.objections.has('trust') && s.turn >= 2)
      return 'trust';
    if (s.objections.has(f.signatureObjection)) return undefined;
    if (f.signatureObjection === 'competitor' && s.revealed.has('quotes')) return 'competitor';
    if (f.signatureObjection === 'spouse' && s.revealed.has('decision')) return 'spouse';
    if (f.signatureObjection === 'timing' && s.revealed.size >= 2 && !t.isQuestion) return 'timing';
    if (s.revealed.size >= 3 && !t.isQuestion) return f.signatureObjection;
    return undefined;
  }

  /** Answers the topics asked: a fact when trust allows, a restatement, or an in-character refusal. */
  private answerTopics(t: RepTurn): (string | null)[] {
    const s = this.state;
    const f = this.facts;
    const out: (string | null)[] = [];
    // In a long turn, the question is at its end; the rest (a company's story) points at nothing.
    // After a preface ("That makes sense. Can I ask what they quoted?"), the question alone.
    const long = t.words.length > 40;
    const asked = t.asked.length < t.words.length ? t.asked : long ? t.words.slice(-25) : t.words;
    const lemmas = asked === t.words ? t.lemmas : lemmatise(asked);
    const content = contentWords(lemmas);
    const wanted = questionWords(lemmas, asked);
    this.core = specific(content);
    for (const [index, topic] of t.topics.slice(0, long ? 1 : 2).entries()) {
      const need = f.needs.find((n) => n.topic === topic);
      if (!need) continue;
      // A second topic already answered is left alone rather than restated on top of the first.
      if (index > 0 && s.revealed.has(topic)) continue;
      s.answered.push(topic);
      s.asked.set(topic, (s.asked.get(topic) ?? 0) + 1);
      const earlier = s.questions.get(topic);
      const repeated = saysItAsksAgain(t.words) || repeatsAnEarlierQuestion(earlier, content);
      s.questions.set(topic, [...(earlier ?? []), content]);
      if (s.revealed.has(topic)) {
        const more = need.more ?? [];
        // A follow-up ("which rooms?", "what did they say?") gets the next detail not yet told:
        // one said before that it points at, briefly; one it names ("you said the deck, what's
        // going on with it?"), even behind "you said"; else the one closest to what it asks.
        const told = this.toldDetail(
          [...need.reveal, ...more],
          new Set([...content, ...amountWords(t.words)]),
          need.reveal,
        );
        const named = told ? null : this.closestUnsaid(more, specific(wanted), 1, this.context, 1);
        const detail =
          told ?? named ?? (repeated ? null : this.closestUnsaid(more, specific(wanted), 0, this.context));
        if (detail) {
          out.push(detail);
          continue;
        }
        // Memory: a repeated question gets the same fact in new words, and the impatient owner loses patience.
        const fact = Lines.shortFact(topic, f);
        out.push(this.book.first(Lines.RESTATE[this.style].map((r) => Lines.fillLine(r, { fact }))));
        if (this.style === 'hurried') s.trust -= 0.5;
        continue;
      }
      // A good open question earns a little more candour than a yes/no one.
      const bonus = t.isOpenQuestion ? 1 : 0;
      if (s.trust + bonus >= need.minTrust) {
        s.revealed.add(topic);
        s.trust += 0.5;
        // A question that points at one detail ("planning to stay long term?") gets that detail first.
        const pointed = this.closestUnsaid(need.more ?? [], specific(wanted), 2, this.context);
        if (pointed) {
          out.push(pointed);
          continue;
        }
        const reveal = this.book.pick(need.reveal);
        out.push(reveal);
        // "What are your energy bills like?": when the general answer says nothing of what was
        // asked and one detail does, that detail follows it.
        // The trade's own words ("floors", "house") point at no detail in particular.
        const pointing = specific(content);
        const answersIt = reveal && this.scoreLines([reveal], pointing)[0].shared > 0;
        if (!answersIt && pointing.size > 0) {
          const aside = this.closestUnsaid(need.more ?? [], pointing, 1);
          if (aside && aside !== reveal) out.push(aside);
        }
      } else {
        out.push(
          this.book.pick(need.guarded) ??
            this.book.pick(
              Lines.ECHO[topic].flatMap((e) => Lines.TOO_SOON[this.style].map((d) => `${e} ${d}`)),
            ),
        );
      }
    }
    return out;
  }

  /**
   * Lines scored by the question's words they share: a word the question names ("how long has
   * the door been sticking?") counts most, a word of the kind of answer it asks for (a time, a
   * place) less, a word of the answer it picks up ("when did that start?") least.
   */
  private scoreLines(lines: readonly string[], question: Set<string>, context?: Set<string>) {
    return lines.map((line) => {
      const filled = fillFacts(line, this.facts);
      let shared = 0;
      let named = 0;
      let picked = 0;
      for (const w of new Set(lemmatise(normalise(filled)).map(sameAs))) {
        if (question.has(w)) {
          shared++;
          if (this.core.has(w)) named++;
        } else if (context?.has(w)) picked++;
      }
      // The answer picked up only decides between lines that answer the question.
      if (shared === 0) picked = 0;
      return {
        line: filled,
        shared,
        named,
        score: 2 * shared + 2 * named + picked,
        said: this.book.wasSaid(filled),
      };
    });
  }

  /**
   * The unsaid line that best matches the question (sharing at least `minShared` words); with
   * `minShared` 0, the first unsaid line when none shares any.
   */
  private closestUnsaid(
    lines: readonly string[],
    question: Set<string>,
    minShared = 0,
    context?: Set<string>,
    minNamed = 0,
  ): string | null {
    let best: { line: string; score: number } | null = null;
    for (const c of this.scoreLines(lines, question, context)) {
      if (c.said || c.shared < minShared || c.named < minNamed) continue;
      // A denial answers only a question about what it denies ("Bills? No...").
      if (deniesIt(c.line) && this.scoreLines([firstSentence(c.line)], question)[0].shared === 0) continue;
      if (!best || c.score > best.score) best = c;
    }
    return best ? (this.book.first([best.line]) ?? null) : null;
  }

  /**
   * A follow-up that points at a detail already told ("whole house or just upstairs?" after
   * "upstairs is freezing") gets it again, briefly, rather than a new detail it did not ask
   * about: the said line must share two words or more with the question and match it better
   * than every unsaid one.
   */
  private toldDetail(
    lines: readonly string[],
    question: Set<string>,
    facts: readonly string[] = [],
  ): string | null {
    const scored = this.scoreLines(lines, question);
    const bestUnsaid = Math.max(0, ...scored.filter((c) => !c.said).map((c) => c.score));
    const point = specific(question);
    // Two shared words at least: one ("floors", "house") points at too much; one word of the
    // trade's own that no unsaid detail shares will do ("what did they quote you?" after "a guy
    // quoted seven grand"). A detail is closer than the first answer.
    const told = scored
      .map((c, i) => ({ ...c, detail: i >= facts.length }))
      .filter(
        (c) =>
          c.said &&
          c.score > bestUnsaid &&
          (c.shared >= 2 ||
            (bestUnsaid === 0 && lemmatise(normalise(c.line)).some((w) => point.has(w) && w.length > 3))),
      )
      .sort((a, b) => b.score - a.score || Number(b.detail) - Number(a.detail))[0];
    if (!told) return null;
    // The sentence of it that the question points at.
    const parts = sentencesWithoutMarks(told.line);
    const hits = (p: string) => lemmatise(normalise(p)).filter((w) => question.has(w)).length;
    const best = withoutInterjection(parts.reduce((a, b) => (hits(b) > hits(a) ? b : a)));
    const fact = Lines.lowerFirst(best, this.names);
    return this.book.first(Lines.RESTATE[this.style].map((r) => Lines.fillLine(r, { fact })));
  }

  /** The words an answer was about, without its opening ("Fine.", "Short version:") and its chatter. */
  private wordsOf(reply: string): Set<string> {
    const body = sentences(reply)
      .map((x) => withoutInterjection(x))
      .join(' ');
    return new Set([...specific(contentWords(lemmatise(normalise(body))))].filter((w) => !CHATTER.has(w)));
  }

  /**
   * Asked about their own life: a short, human answer in the owner's temperament, then back to
   * the visit. A follow-up ("how old are they?") gets the next detail.
   */
  private talkAboutLife(subject: LifeSubject, t: RepTurn): (string | null)[] {
    const s = this.state;
    const st = this.style;
    const fact = this.facts.life[subject];
    s.focus = { life: subject };
    // The friendly owners warm to it; the impatient and the distrusting ones do not.
    if (st === 'friendly') s.trust += 0.25;
    if (st === 'wary' || st === 'hurried') s.trust -= 0.25;
    const first = !s.lifeTold.has(subject);
    s.lifeTold.add(subject);
    // The detail the question points at ("how long have you been married?"), else the first answer.
    // Words that name the subject itself ("a dog", "kids") point at no detail of it.
    const wanted = new Set(
      [...specific(questionWords(t.lemmas, t.words))].filter((w) => !has([[w]], LIFE_CUES[subject])),
    );
    const all = [...fact.answer, ...fact.more];
    const line =
      this.closestUnsaid(all, wanted, 1) ??
      (first ? this.book.pick(fact.answer) : this.closestUnsaid(all, wanted));
    const steer = first || st === 'hurried' || st === 'wary' ? this.book.pick(Lines.LIFE_STEER[st]) : null;
    return line ? [line, steer] : [steer ?? this.book.pick(Lines.STEER[st])];
  }

  /**
   * Asked about insurance for the damage (the claim, the adjuster, the deductible): the detail
   * the question names, else the one said before that it points at, else the next one. The owner
   * who distrusts salespeople keeps it to himself until he trusts the rep a little.
   */
  private talkAboutClaim(t: RepTurn): (string | null)[] {
    const s = this.state;
    const c = this.facts.claim;
    s.focus = { claim: true };
    if (s.trust < c.minTrust && c.guarded.length) return [this.book.pick(c.guarded)];
    const wanted = new Set(specific(questionWords(t.lemmas, t.words)));
    const all = [...c.answer, ...c.more];
    // Asked the first time, where things stand ("has the adjuster been out?"), unless the
    // question names a detail of it (the deductible, what it covers).
    const first = !all.some((l) => this.book.wasSaid(l));
    const detail = namesAny(t.words.join(' '), CLAIM_DETAIL_WORDS);
    const line =
      (first && !detail ? this.closestUnsaid(c.answer, wanted) : null) ??
      this.closestUnsaid(all, wanted, 1) ??
      this.toldDetail(all, wanted) ??
      this.closestUnsaid(all, wanted);
    return [line ?? this.book.pick(Lines.STEER[this.style])];
  }

  /**
   * Asked to look at something: where it is, for the thing the rep names. The owner who wants
   * proof first lets nobody look around before seeing it.
   */
  private showAround(t: RepTurn): (string | null)[] {
    const s = this.state;
    const f = this.facts;
    const st = this.style;
    if (f.temperament.demandsProof && !s.proofShown) {
      s.trust -= 0.25;
      if (!s.objections.has('trust')) s.objections.set('trust', 'open');
      return [this.book.pick(Lines.INSPECT_REFUSED[st]) ?? this.stillOpen('trust')];
    }
    s.trust += 0.25;
    const seqs = [t.words, t.lemmas];
    // "Can I pop into the attic first? I'd rather see it from underneath before I go up top": the
    // place asked for now, before what comes later in the turn.
    const first = before(t.words.join(' '), LATER_WORDS).split(' ').filter(Boolean);
    const now = [first, lemmatise(first)];
    const ranked = f.spots
      .map((spot, i) => ({
        line: fillFacts(spot.line, f),
        first: spot.cues.filter((cue) => has(now, [cue])).length,
        hits: spot.cues.filter((cue) => has(seqs, [cue])).length,
        i,
      }))
      // A line is used up once all of it was said ("Sure." alone may have been said before).
      .filter((c) => !sentences(c.line).every((x) => this.book.wasSaid(x)))
      .sort((a, b) => b.first - a.first || b.hits - a.hits || a.i - b.i);
    return [ranked[0]?.line ?? this.book.pick(Lines.INSPECT_OK[st])];
  }

  /** The day and time the rep's turn proposes, as the homeowner would say it back. */
  /**
   * Whether the turn offers a day for a visit: a weekday, tomorrow or a clock time put forward.
   * "So you can call them tonight" names when they would read something, not a visit.
   */
  private offersDay(): boolean {
    const day = this.proposedDay();
    if (!day) return false;
    const d = day.toLowerCase();
    return d !== 'tonight' && d !== 'today';
  }

  private proposedDay(): string | null {
    return this.heard ? proposedWhen(this.heard.text) : null;
  }

  /** Whether a proposed day suits the household (the decision-maker can be there). */
  private suits(when: string): boolean {
    const w = when.toLowerCase();
    return namesAny(w, this.facts.schedule.suits);
  }

  /** A plain answer to a passing request or offer, or null when the turn makes none. */
  private answerRequest(t: RepTurn): (string | null)[] | null {
    const u = this.heard;
    if (!u) return null;
    const s = this.state;
    const st = this.style;
    const pick = (o: string[]) => this.book.pick(o);
    const f = this.facts;
    const names = [f.household.spouseName];
    if (asksWhenFree(u.text) && !t.close) return [this.offerOwnTimes(f.schedule.free)];
    if (asksWhoIsHome(u.text, names)) return [pick(f.schedule.now)];
    if (asksWhoSomeoneIs(u.text, names))
      return [pick(Lines.WHO_IS_SPOUSE[st].map((l) => l.replaceAll('{role}', f.household.spouseRole)))];
    if (asksTechnicalDetail(u.text) && !t.close) return [pick(Lines.DONT_KNOW[st])];
    // "So it's the roof you wanted looked at, yeah?" at a door with a deck to fix: put right.
    const trades = tradesNamed(u.text);
    if (
      t.isQuestion &&
      trades.length > 0 &&
      !trades.includes(f.card.stage) &&
      !t.close &&
      checksTheJob(u.text)
    )
      return [pick(Lines.WRONG_JOB[st])];
    const homeNeed = f.needs.find((n) => n.topic === 'home');
    if (asksThingAge(u.text) && !t.close && s.trust >= (homeNeed?.minTrust ?? 0)) {
      // The thing's age is part of the home's story: told once trust allows, and it counts as told.
      if (!s.revealed.has('home')) {
        s.revealed.add('home');
        s.trust += 0.5;
      }
      s.answered.push('home');
      // Asked again: the same fact, in new words.
      const fresh = this.book.pickNew(f.thingAge);
      const fact = f.thingAgeFact;
      return [fresh ?? this.book.first(Lines.RESTATE[st].map((r) => Lines.fillLine(r, { fact })))];
    }
    const kind: RequestKind | null = requestKind(u.text);
    const proofFirst = this.facts.temperament.demandsProof && !s.proofShown;
    switch (kind) {
      case 'agreed-day':
        return [
          s.agreed && s.agreedWhen
            ? pick(Lines.AGREED_DAY[st].map((l) => fillWhen(l, s.agreedWhen ?? '')))
            : pick(Lines.NOTHING_AGREED[st]),
        ];
      case 'restroom':
        // "Mind if I nip to your loo before I measure up?": a visitor's need, whatever follows it.
        return [pick(Lines.RESTROOM[st])];
      case 'parking':
        return [pick(Lines.PARKING[st])];
      case 'gate':
        return [pick(Lines.GATE[st])];
      case 'enter':
        return [pick(Lines.ENTER[st])];
      case 'photo':
        return [pick(proofFirst ? Lines.PHOTO_REFUSED[st] : Lines.PHOTO[st])];
      case 'call-spouse':
        return [pick(Lines.CALL_SPOUSE[st])];
      case 'leave-item':
        return this.offersDay() ? null : [pick(Lines.TAKES_INFO[st])];
      case 'confirm-booking':
        // Word of a booking presumes one: sent gladly when a day was agreed, put right when not.
        return [s.agreed ? pick(Lines.SEND_OK[st]) : pick(Lines.NOTHING_AGREED[st])];
      case 'send-item':
        // Only when it is offered ("want me to email the photos?"), not a promise inside a pitch.
        return !this.offersDay() &&
          (u.text.includes('?') ||
            does(u, 'offer') ||
            namesAny(u.text.toLowerCase(), ['happy to', 'glad to', 'want me to']))
          ? [pick(Lines.SEND_OK[st])]
          : null;
      default:
        return null;
    }
  }

  /**
   * The rep talks as if a booking was made ("great, see you Thursday then"): the homeowner puts it
   * right when nothing was agreed, or when another day was.
   */
  private correctAssumed(): string | null {
    const u = this.heard;
    if (!u || !this.assumesBooking()) return null;
    const s = this.state;
    const when = proposedWhen(u.text);
    if (s.agreed && s.agreedWhen && when && !sameDay(when, s.agreedWhen))
      return this.book.pick(
        AGREED_OTHER[this.style].map((l) => fillWhen(l, when).replaceAll('{agreed}', s.agreedWhen ?? '')),
      );
    if (s.agreed) return null;
    const day = when ?? 'that';
    return this.book.pick(NEVER_AGREED[this.style].map((l) => fillWhen(l, day)));
  }

  /**
   * The rep talks of a day as settled, and it was not the homeowner's own offer just before ("Can
   * you do Saturday?" / "Saturday it is, then" is the rep agreeing, not assuming).
   */
  private assumesBooking(): boolean {
    const u = this.heard;
    if (!u || !assumesBooking(u)) return false;
    // "ok if I hop up on the roof now?" asks leave; a booking stated names a day or says so plainly.
    if (does(u, 'request') && !u.rules.strong.has('proposal:assumed') && u.entities.times.length === 0)
      return false;
    const s = this.state;
    // "We had you down for two o'clock" at the door is this visit, not a next step.
    if (s.turn <= 2 && !does(u, 'proposal:assumed')) return false;
    if (s.counteredAt !== s.turn - 1) return true;
    // Right after her own counter, the rep taking it up is no assumption; a day she did not offer
    // ("evenings after six" countered, "so Tuesday at nine, I'll stick that in") still is.
    const when = proposedWhen(u.text);
    return when !== null && !this.suits(when);
  }

  /** Refuses the day the rep proposed, by name, before the reason: a proposal is never left unanswered. */
  private notYet(t: RepTurn, reason: string | null): string | null {
    const when = this.proposedDay();
    if (!when) return reason;
    if (this.heard && proposedWhens(this.heard.text).length > 1)
      return [this.book.pick(Lines.NEITHER_DAY[this.style]), reason].filter(Boolean).join(' ') || null;
    // Never two openers in a row ("Hold on, ... Hold on."): a refusal that starts as the reason does is left out.
    const opener = (line: string) => wordsOf(line).slice(0, 2).join(' ').toLowerCase();
    const variants = NOT_THAT_DAY[this.style].map((l) => fillWhen(l, when));
    const distinct = reason ? variants.filter((v) => opener(v) !== opener(reason)) : variants;
    const refusal = this.book.pick(distinct.length ? distinct : variants);
    return [refusal, reason].filter(Boolean).join(' ') || null;
  }

  /** Says when the household is free (or counters with it), and remembers having said so. */
  private offerOwnTimes(pool: string[]): string | null {
    const line = this.book.pick(pool);
    // "Evenings are easiest", "and Saturdays": the plural offers the day as well.
    if (line) this.state.ownTimes.push(...OWN_TIME_WORDS.filter((w) => line.toLowerCase().includes(w)));
    return line;
  }

  /**
   * Whether the rep now proposes a time the homeowner offered herself ("An evening after six, or
   * Saturday morning, would work" / "Saturday at ten?"): she takes it rather than refuse her own offer.
   */
  private takesOwnOffer(): boolean {
    const own = this.state.ownTimes;
    if (!own.length) return false;
    const named = this.offeredDays().flatMap((w) => wordsNamed(w.toLowerCase(), OWN_TIME_WORDS));
    // "Thursday at six" after "an evening after six": five to nine without a.m. is the evening.
    const evening = (this.heard?.entities.times ?? []).some((x) => {
      const hour = x.time ? Number(x.time.split(':')[0]) : NaN;
      return x.role === 'proposed' && x.ampm !== 'am' && hour >= 5 && hour <= 9 && x.part === null;
    });
    return [...named, ...(evening ? ['evening'] : [])].some((x) => own.includes(x));
  }

  private respondToClose(t: RepTurn): string | null {
    // A day put when the spouse can be there answers "not without him" (the worry is heard).
    const f0 = this.facts;
    if (
      this.state.objections.get('spouse') === 'open' &&
      this.heard &&
      namesAny(this.heard.text, [
        ...TOGETHER_WORDS,
        f0.household.spouseName,
        'you two',
        'both of you',
        'is in',
        'is home',
      ])
    ) {
      this.state.objections.set('spouse', 'answered');
      this.state.trust += 1;
    }
    const corrected = this.correctAssumed();
    if (corrected) return [corrected, this.closeReason()].filter(Boolean).join(' ');
    const s = this.state;
    const f = this.facts;
    if (this.takesOwnOffer()) return this.agreeTo(t);
    if (
      this.openObjection() === undefined &&
      s.revealed.size >= f.temperament.needsToClose &&
      s.trust >= f.temperament.trustToClose
    )
      if (!(f.card.difficulty >= 3 && !s.objections.has(f.signatureObjection))) return this.agreeTo(t);
    return this.notYet(t, this.closeReason());
  }

  /**
   * The days the rep offered, each with the part of the day said once for all of them: "one
   * evening when Mark's home? Tuesday or Thursday?" offers Tuesday evening and Thursday evening.
   */
  private offeredDays(): string[] {
    const u = this.heard;
    if (!u) return [];
    // "Seven-thirty Thursday": the day with the time said before it, as the reading found it.
    const offered = proposedWhens(u.text).map(
      (w) =>
        u.entities.times.find(
          (x) =>
            x.day !== null &&
            x.text.length > w.length &&
            w.toLowerCase().includes(x.day) &&
            !x.text.includes(',') &&
            wordsOf(x.text).length <= 5,
        )?.text ?? w,
    );
    // "one evening... Tuesday or Thursday?" or "tues or thurs eve?": the part of the day said once.
    const lone =
      u.entities.times.find(
        (x) => x.day === null && x.time === null && x.part !== null && x.role === 'proposed',
      ) ??
      (offered.length > 1
        ? u.entities.times.filter((x) => x.role === 'proposed' && x.part !== null).at(-1)
        : undefined);
    if (!lone?.part) return offered;
    const part = lone.part;
    return offered.map((w) => (DAY_PARTS.some((p) => w.toLowerCase().includes(p)) ? w : `${w} ${part}`));
  }

  /** Says yes to the rep's proposal: to the day they named, with the spouse when both decide. */
  private agreeTo(t: RepTurn): string | null {
    const s = this.state;
    const f = this.facts;
    const offered = this.offeredDays();
    // Of the days offered, the first the household can make; none of them: another that suits.
    const when = offered.find((w) => this.suits(w)) ?? null;
    if (offered.length > 0 && !when) {
      s.counteredAt = s.turn;
      return this.offerOwnTimes(f.schedule.counter);
    }
    s.agreed = true;
    if (!when) return this.book.pick(f.agree);
    s.agreedWhen = when;
    const both =
      f.household.decider.includes(f.household.spouseName) || f.household.decider.includes(' and ');
    const mentionsSpouse =
      namesAny(t.words.join(' '), TOGETHER_WORDS) || t.words.includes(f.household.spouseName.toLowerCase());
    const accept = this.book.pick(AGREE_AT[this.style].map((line) => fillWhen(line, when)));
    const spouse =
      both && !mentionsSpouse
        ? this.book.pick(SPOUSE_TOO.map((l) => l.replace('{spouseName}', f.household.spouseName)))
        : null;
    return accept && spouse ? `${accept} ${spouse}` : (accept ?? this.book.pick(f.agree));
  }

  /** Why the homeowner will not book yet: the open worry, the proof, the signature objection, or too soon. */
  private closeReason(): string | null {
    const s = this.state;
    const f = this.facts;
    const open = this.openObjection();
    if (open) return this.stillOpen(open);
    const enoughNeeds = s.revealed.size >= f.temperament.needsToClose;
    if (s.trust >= f.temperament.trustToClose && enoughNeeds && !s.objections.has(f.signatureObjection))
      return this.raise(f.signatureObjection);
    if (f.temperament.demandsProof && !s.proofShown) return this.raise('trust') ?? this.stillOpen('trust');
    if (enoughNeeds && !s.objections.has(f.signatureObjection)) return this.raise(f.signatureObjection);
    // "You haven't even asked what's wrong" is never said once it has been asked.
    const notYet = f.notYet.filter(
      (l) => !(s.revealed.has('problem') && namesAny(l, ["haven't even asked", 'first thing about'])),
    );
    return this.book.pick(notYet) ?? this.book.pick(Lines.NOT_YET_MORE[this.style]);
  }
}

export const scriptedBrain: PersonaBrain = {
  id: 'scripted',
  label: 'Scripted homeowner',
  startConversation({ stage, seed }) {
    // The lemmatiser's model loads once per process: off the first turn's path.
    setImmediate(warmUp);
    return new ScriptedConversation(stage, seed ?? Math.floor(Math.random() * 2 ** 31));
  },
};
