import type { Stage } from '../../../core/stages';
import { analyseRepTurn, type RepTurn } from './intents';
import { fillFacts, PERSONA_FACTS, type ObjectionKind, type PersonaFacts, type Topic } from './personas';
import type { BrainConversation, BrainTurn, PersonaBrain } from './types';

/** A small seeded generator so a call is reproducible in tests and varies between calls. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type ObjectionState = 'open' | 'resolved';

/** What the homeowner remembers and feels during one call. */
export interface HomeownerState {
  turn: number;
  trust: number;
  pressureCount: number;
  revealed: Set<Topic>;
  asked: Map<Topic, number>;
  objections: Map<ObjectionKind, ObjectionState>;
  proofShown: boolean;
  agreed: boolean;
  /** The homeowner ended the conversation (after repeated pressure). */
  ended: boolean;
  greeted: boolean;
}

const MAX_PARTS = 2;

/** The scripted homeowner: a rule-based dialogue engine over one persona's facts and temperament. */
export class ScriptedConversation implements BrainConversation {
  readonly facts: PersonaFacts;
  readonly state: HomeownerState;
  private readonly random: () => number;
  private readonly used = new Set<string>();

  constructor(stage: Stage, seed: number) {
    this.facts = PERSONA_FACTS[stage];
    this.random = seededRandom(seed);
    this.state = {
      turn: 0,
      trust: this.facts.temperament.startTrust,
      pressureCount: 0,
      revealed: new Set(),
      asked: new Map(),
      objections: new Map(),
      proofShown: false,
      agreed: false,
      ended: false,
      greeted: false,
    };
  }

  opening(): string {
    return this.pick(this.facts.openings);
  }

  get finished(): boolean {
    return this.state.ended;
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
    const f = this.facts;
    const t = analyseRepTurn(repText);
    s.turn++;
    if (s.ended) return this.pick(["I said we're done here.", 'Please leave.']);
    if (t.words.length === 0)
      return this.pick(["Sorry, I didn't catch that.", 'What was that?', 'Come again?']);

    if (t.pressure) {
      s.pressureCount++;
      s.trust -= 3;
      if (s.pressureCount >= 2) {
        s.ended = true;
        return this.pick(f.pressuredAgain);
      }
      return this.pick(f.pressured);
    }

    if (s.agreed) {
      if (t.topics.length > 0) return this.answerTopics(t).join(' ');
      return this.pick([
        'Great. See you then.',
        'Okay, sounds good. See you then.',
        "Alright. I'll see you then.",
      ]);
    }

    const parts: string[] = [];
    const open = this.openObjection();
    let acknowledged = false;

    if (t.proof) {
      // Proof counts once in full; repeating the same credentials adds little.
      s.trust += s.proofShown ? 0.5 : f.temperament.demandsProof ? 3 : 1;
      if (!s.proofShown || s.objections.get('trust') === 'open') {
        parts.push(this.pick(f.proofAccepted));
        acknowledged = true;
      }
      s.proofShown = true;
      if (s.objections.get('trust') === 'open') s.objections.set('trust', 'resolved');
    }
    if (open && open !== 'trust' && t.addresses.includes(open)) {
      s.objections.set(open, 'resolved');
      s.trust += 1.5;
      if (!acknowledged)
        parts.push(
          this.pick(["Okay. That's fair.", 'Hm. Alright, that helps.', 'Okay, I can live with that.']),
        );
      acknowledged = true;
    }
    if (t.empathy) {
      s.trust += 0.75;
      if (!acknowledged && !t.isQuestion && !t.close) parts.push(this.pick(f.warmed));
      acknowledged = true;
    }
    if (t.greeting && !s.greeted) {
      s.greeted = true;
      s.trust += 0.5;
      if (t.topics.length === 0 && !t.close) parts.push(this.pick(f.greeted));
    }

    // An impatient owner cuts a long speech with no question short.
    if (t.words.length > f.temperament.ramblingWords && !t.isQuestion) {
      s.trust -= 0.5;
      return this.pick(f.cutShort);
    }

    if (t.close) return this.limit([...parts, this.respondToClose()]);

    if (t.topics.length > 0 && (t.isQuestion || t.words.length <= 8)) {
      parts.push(...this.answerTopics(t));
    } else if (t.priceTalk && !s.objections.has('price')) {
      parts.push(this.raise('price'));
    } else if (t.pitch && !t.isQuestion && !acknowledged) {
      parts.push(this.pick(f.pitchReaction));
    } else if (t.isQuestion && parts.length === 0) {
      parts.push(this.pick(f.nudges));
    }

    // Objections come at fitting moments: the distrusting owner asks for proof early,
    // the others once the conversation has substance.
    const fitting = this.fittingObjection(t);
    if (fitting && parts.length < MAX_PARTS) parts.push(this.raise(fitting));

    if (parts.length === 0) parts.push(this.pick(f.nudges));
    return this.limit(parts);
  }

  private limit(parts: string[]): string {
    return parts.slice(0, MAX_PARTS).join(' ');
  }

  private openObjection(): ObjectionKind | undefined {
    for (const [kind, state] of this.state.objections) if (state === 'open') return kind;
    return undefined;
  }

  private raise(kind: ObjectionKind): string {
    this.state.objections.set(kind, 'open');
    return this.pick(this.facts.objections[kind]);
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
    if (s.revealed.size >= 3) return f.signatureObjection;
    return undefined;
  }

  private answerTopics(t: RepTurn): string[] {
    const s = this.state;
    const out: string[] = [];
    for (const topic of t.topics.slice(0, 2)) {
      const need = this.facts.needs.find((n) => n.topic === topic);
      if (!need) continue;
      const times = (s.asked.get(topic) ?? 0) + 1;
      s.asked.set(topic, times);
      if (s.revealed.has(topic)) {
        // Memory: a repeated question gets a reminder, and the impatient owner loses patience.
        const prefix =
          this.facts.temperament.ramblingWords < 50
            ? 'I already told you. '
            : this.pick(['Like I said, ', 'As I mentioned, ']);
        out.push(prefix + lowerFirst(fillFacts(need.reveal[0], this.facts)));
        if (this.facts.temperament.ramblingWords < 50) s.trust -= 0.5;
        continue;
      }
      // A good open question earns a little more candour than a yes/no one.
      const bonus = t.isOpenQuestion ? 1 : 0;
      if (s.trust + bonus >= need.minTrust) {
        s.revealed.add(topic);
        s.trust += 0.5;
        out.push(fillFacts(this.pick(need.reveal), this.facts));
      } else {
        out.push(fillFacts(this.pick(need.guarded), this.facts));
      }
    }
    return out;
  }

  private respondToClose(): string {
    const s = this.state;
    const f = this.facts;
    const open = this.openObjection();
    if (open) return this.pick(f.objections[open]);
    const enoughNeeds = s.revealed.size >= f.temperament.needsToClose;
    const enoughTrust = s.trust >= f.temperament.trustToClose;
    if (enoughNeeds && enoughTrust) {
      // Harder owners only agree once their signature objection has been heard and answered.
      if (f.card.difficulty >= 3 && !s.objections.has(f.signatureObjection))
        return this.raise(f.signatureObjection);
      s.agreed = true;
      return this.pick(f.agree);
    }
    if (f.temperament.demandsProof && !s.proofShown) return this.raise('trust');
    if (enoughNeeds && !s.objections.has(f.signatureObjection)) return this.raise(f.signatureObjection);
    return this.pick(f.notYet);
  }

  /** Picks a variant, avoiding lines already said in this call when possible. */
  private pick(options: string[]): string {
    const fresh = options.filter((o) => !this.used.has(o));
    const pool = fresh.length > 0 ? fresh : options;
    const choice = pool[Math.floor(this.random() * pool.length)] ?? '';
    this.used.add(choice);
    return fillFacts(choice, this.facts);
  }
}

function lowerFirst(text: string): string {
  return text.length > 1 && /^[A-Z][a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
}

export const scriptedBrain: PersonaBrain = {
  id: 'scripted',
  label: 'Scripted homeowner',
  startConversation({ stage, seed }) {
    return new ScriptedConversation(stage, seed ?? Math.floor(Math.random() * 2 ** 31));
  },
};
