import type { Stage } from '../../../core/stages';
import { AGREE_AT, fillWhen, proposedTime, RESCHEDULE, SPOUSE_TOO } from './appointments';
import { contentWords, questionWords, repeatsAnEarlierQuestion, saysItAsksAgain } from './followups';
import { analyseRepTurn, warmUp, type RepTurn } from './intents';
import { lemmatise, normalise } from './match';
import * as Lines from './lines';
import { fillFacts, PERSONA_FACTS, type ObjectionKind, type PersonaFacts, type Topic } from './personas';
import { Phrasebook } from './phrasebook';
import type { BrainConversation, BrainTurn, CallEnd, PersonaBrain } from './types';

export { AGREE_AT, proposedTime } from './appointments';
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
  /** The homeowner ended the conversation (after repeated pressure or rudeness). */
  ended: boolean;
  greeted: boolean;
  /** Set by the last reply: the call ends once that reply has been heard. */
  endCall: CallEnd | null;
  /** Topics the last reply answered (revealed, restated or deflected). */
  answered: Topic[];
  /** The rep has named a price. */
  quoted: boolean;
  /** The rep has put something on the table: a price, options, a recommendation. */
  offered: boolean;
  /** The content words of each question asked per topic, to tell a follow-up from a repeat. */
  questions: Map<Topic, Set<string>[]>;
}

const MAX_PARTS = 2;

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
]);

/**
 * The scripted homeowner: a small dialogue manager over one persona's facts and temperament.
 * Each rep turn is classified (intents.ts); the homeowner answers the question first, from its
 * facts and only as far as trust allows, reacts to what was offered, tracks its objections,
 * agrees only when it has been earned, and ends the call on a goodbye or sustained pressure.
 */
export class ScriptedConversation implements BrainConversation {
  readonly facts: PersonaFacts;
  readonly state: HomeownerState;
  private readonly style: Lines.Style;
  private readonly book: Phrasebook;

  constructor(stage: Stage, seed: number) {
    this.facts = PERSONA_FACTS[stage];
    this.style = Lines.styleOf(this.facts);
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
      ended: false,
      greeted: false,
      endCall: null,
      answered: [],
      questions: new Map(),
      quoted: false,
      offered: false,
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
    for (const sentence of text.match(/[^.!?]+[.!?]*\s*/g) ?? [text]) {
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
    const t = analyseRepTurn(repText.slice(0, 4000));
    return this.book.say(this.decide(t), Lines.FILLERS[this.style]);
  }

  private decide(t: RepTurn): (string | null)[] {
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
    if (t.pressure && !s.agreed) {
      s.pressureCount++;
      s.trust -= 3;
      if (s.rudeCount + s.pressureCount >= 2)
        return this.endByHomeowner(f.pressuredAgain, Lines.RUDE_END[st]);
      return [pick(f.pressured) ?? pick(Lines.RUDE[st])];
    }
    // "Thanks for having me over" in the first turns greets; later it takes leave.
    if (t.goodbye && !(t.greeting && s.turn <= 2)) {
      s.endCall = 'goodbye';
      const answer = t.isQuestion && t.topics.length ? this.answerTopics(t).slice(0, 1) : [];
      return [
        ...answer,
        pick(s.agreed ? Lines.GOODBYE_AGREED[st] : Lines.GOODBYE[st]) ?? pick(Lines.GOODBYE[st]),
      ];
    }
    if (s.agreed) return this.afterAgreement(t);

    // "What are you thinking?", "what gives you pause?": the homeowner speaks their mind about
    // what is on the table. A household question in the same turn ("what do you think is
    // causing it?", "what did you think of the engineered hardwood?") is answered as one.
    const mind =
      !t.close &&
      ((t.probesConcern && (s.offered || this.openObjection() !== undefined || t.topics.length === 0)) ||
        ((t.asksOpinion || (t.checksBack && s.offered)) && t.topics.length === 0));
    if (mind) {
      // What was offered or answered in the same breath gets its reaction; a "totally fair"
      // before the question does not need a thank-you.
      const reactions = this.react(t);
      const weighed = t.price !== null || t.options || t.proof || t.financing || t.addresses.length > 0;
      return this.limit([...(weighed ? reactions.slice(0, 1) : []), this.speakMind(t)]);
    }

    // 1. Answer what was asked.
    const answer: (string | null)[] = [];
    // A proposal ("could I come Saturday when your wife is home?") is answered as a proposal.
    if (t.topics.length > 0 && !t.close && (t.isQuestion || t.words.length <= 8))
      answer.push(...this.answerTopics(t));
    else if (t.invite) answer.push(this.openConcernLine() ?? pick(Lines.REACT.invite));
    else if (t.smallTalk && !t.close && !(t.greeting && !s.greeted)) answer.push(...this.smallTalk());
    else if (t.offTopic && !t.close) {
      answer.push(pick(Lines.OFF_TOPIC[st]), pick(Lines.STEER[st]));
      if (st === 'wary' || st === 'hurried') s.trust -= 0.25;
    }

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
    if (t.topics.length > 0 && t.isQuestion) return this.answerTopics(t);
    if (t.close) {
      // A day named after agreeing: take the rep's day.
      const when = proposedTime(t.words);
      const moved = when ? this.book.pick(RESCHEDULE[st].map((l) => fillWhen(l, when))) : null;
      return [moved ?? this.book.pick(Lines.STILL_AGREED[st])];
    }
    if (t.confirm) return [this.book.pick(Lines.AGREED_CONFIRM[st])];
    if (t.smallTalk) return this.smallTalk().slice(0, 1);
    return [this.book.pick(Lines.AGREED_ACK[st])];
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
    // "Is your budget over ten thousand?" asks; it quotes nothing.
    const quotes = t.price !== null && !(t.isQuestion && t.topics.includes('budget'));
    // Something is on the table once the rep quotes a price, lays out options, recommends or
    // describes what they would put in.
    if (quotes || t.options || ((t.recommendation || t.pitch) && (t.domain || t.topics.includes('product'))))
      s.offered = true;
    if (quotes && t.price !== null) {
      s.quoted = true;
      // Options side by side: the homeowner weighs the one within reach.
      out.push(this.reactToPrice(Math.min(...t.prices, t.price)));
    } else if (t.financing) out.push(pick(Lines.REACT.financing));
    if (t.warranty && !t.proof && out.length === 0) out.push(pick(Lines.REACT.warranty));
    if (t.leavesInfo && out.length === 0) out.push(pick(Lines.TAKES_INFO[this.style]));
    if (t.options && out.length === 0) out.push(pick(Lines.REACT.options));
    if (t.recommendation && out.length === 0 && (t.domain || t.topics.includes('product')))
      out.push(pick(s.revealed.size >= 2 ? Lines.REACT.recommendFits : Lines.REACT.recommendEarly));
    if (t.empathy) {
      s.trust += 0.75;
      if (out.length === 0 && !t.isQuestion && !t.close && !t.smallTalk) out.push(pick(f.warmed));
    }
    if (t.greeting && !s.greeted) {
      s.greeted = true;
      s.trust += 0.5;
      if (t.topics.length === 0 && !t.close && out.length === 0) out.push(pick(f.greeted));
    }
    return out.filter((x) => x !== null);
  }

  private reactToPrice(price: number): string | null {
    const s = this.state;
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

  /** Voices an objection for the first time; an open one is restated in other words. */
  private raise(kind: ObjectionKind): string | null {
    if (this.state.objections.get(kind) === 'open') return this.stillOpen(kind);
    if (this.state.objections.has(kind)) return null;
    this.state.objections.set(kind, 'open');
    return this.book.pick(this.facts.objections[kind]);
  }

  private stillOpen(kind: ObjectionKind): string | null {
    return this.book.pick(this.facts.objections[kind]) ?? this.book.pick(Lines.STILL_OPEN[kind]);
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
    if (open) return this.stillOpen(open);
    const unsettled = [...s.objections].find(([, state]) => state === 'answered')?.[0];
    if (unsettled) return this.book.pick(Lines.STILL_OPEN[unsettled]) ?? this.stillOpen(unsettled);
    if (!s.offered && !t.probesConcern) return this.book.pick(Lines.NOTHING_OFFERED[st]);
    if (f.temperament.demandsProof && !s.proofShown) return this.raise('trust') ?? this.stillOpen('trust');
    if (!s.objections.has(f.signatureObjection)) return this.raise(f.signatureObjection);
    const leaning = s.trust >= f.temperament.trustToClose - 1;
    if (!leaning) return this.book.pick(Lines.UNDECIDED[st]);
    return this.book.pick(t.probesConcern ? Lines.NO_CONCERN[st] : Lines.LEANING[st]);
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
    const content = contentWords(t.lemmas);
    const wanted = questionWords(t.lemmas, t.words);
    for (const [index, topic] of t.topics.slice(0, 2).entries()) {
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
        // A follow-up ("which rooms?", "what did they say?") gets the next detail not yet told.
        const detail = repeated
          ? null
          : (this.toldDetail(need.more ?? [], content) ?? this.closestUnsaid(need.more ?? [], wanted));
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
        const pointed = this.closestUnsaid(need.more ?? [], content, 2);
        if (pointed) {
          out.push(pointed);
          continue;
        }
        const reveal = this.book.pick(need.reveal);
        out.push(reveal);
        // "What are your energy bills like?": when the general answer says nothing of what was
        // asked and one detail does, that detail follows it.
        // The trade's own words ("floors", "house") point at no detail in particular.
        const specific = new Set([...content].filter((w) => !GENERIC_WORDS.has(w)));
        const answersIt = reveal && this.scoreLines([reveal], specific)[0].shared > 0;
        if (!answersIt && specific.size > 0) {
          const aside = this.closestUnsaid(need.more ?? [], specific, 1);
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

  /** Lines scored by how many of the question's content words they share. */
  private scoreLines(lines: readonly string[], question: Set<string>) {
    return lines.map((line) => {
      const filled = fillFacts(line, this.facts);
      const shared = new Set(lemmatise(normalise(filled)).filter((w) => question.has(w))).size;
      return { line: filled, shared, score: shared, said: this.book.wasSaid(filled) };
    });
  }

  /**
   * The unsaid line that best matches the question (sharing at least `minShared` words); with
   * `minShared` 0, the first unsaid line when none shares any.
   */
  private closestUnsaid(lines: readonly string[], question: Set<string>, minShared = 0): string | null {
    let best: { line: string; score: number } | null = null;
    for (const c of this.scoreLines(lines, question)) {
      if (c.said || c.shared < minShared) continue;
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
  private toldDetail(lines: readonly string[], question: Set<string>): string | null {
    const scored = this.scoreLines(lines, question);
    const bestUnsaid = Math.max(0, ...scored.filter((c) => !c.said).map((c) => c.score));
    // Two shared words at least: one ("floors", "house") points at too much.
    const told = scored
      .filter((c) => c.said && c.shared >= 2 && c.score > bestUnsaid)
      .sort((a, b) => b.score - a.score)[0];
    if (!told) return null;
    // The sentence of it that the question points at.
    const parts = (told.line.match(/[^.!?]+/g) ?? [told.line]).map((p) => p.trim());
    const hits = (p: string) => lemmatise(normalise(p)).filter((w) => question.has(w)).length;
    const best = parts.reduce((a, b) => (hits(b) > hits(a) ? b : a));
    const fact = best.replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase());
    return this.book.first(Lines.RESTATE[this.style].map((r) => Lines.fillLine(r, { fact })));
  }

  private respondToClose(t: RepTurn): string | null {
    const s = this.state;
    const f = this.facts;
    const open = this.openObjection();
    if (open) return this.stillOpen(open);
    const enoughNeeds = s.revealed.size >= f.temperament.needsToClose;
    const enoughTrust = s.trust >= f.temperament.trustToClose;
    if (enoughNeeds && enoughTrust) {
      // Harder owners only agree once their signature objection has been heard and answered.
      if (f.card.difficulty >= 3 && !s.objections.has(f.signatureObjection))
        return this.raise(f.signatureObjection);
      s.agreed = true;
      // The rep named a day: agree to that day, not to one of our own.
      const when = proposedTime(t.words);
      if (when) {
        const both =
          f.household.decider.includes(f.household.spouseName) || f.household.decider.includes(' and ');
        const mentionsSpouse =
          /\b(both|spouse|husband|wife|partner|together)\b/.test(t.words.join(' ')) ||
          t.words.includes(f.household.spouseName.toLowerCase());
        const accept = this.book.pick(AGREE_AT[this.style].map((line) => fillWhen(line, when)));
        const spouse =
          both && !mentionsSpouse
            ? this.book.pick(SPOUSE_TOO.map((l) => l.replace('{spouseName}', f.household.spouseName)))
            : null;
        if (accept) return spouse ? `${accept} ${spouse}` : accept;
      }
      return this.book.pick(f.agree);
    }
    if (f.temperament.demandsProof && !s.proofShown) return this.raise('trust') ?? this.stillOpen('trust');
    if (enoughNeeds && !s.objections.has(f.signatureObjection)) return this.raise(f.signatureObjection);
    return this.book.pick(f.notYet) ?? this.book.pick(Lines.NOT_YET_MORE[this.style]);
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
