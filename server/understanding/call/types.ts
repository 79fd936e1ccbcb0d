import type { Entities, MoneyEntity, Relation, TimeEntity } from '../entities';
import type { ObjectionLabelKind } from '../labels';
import type { Speaker } from '../types';
import type { Utterance } from '../utterance';

/** Where a fact was said: a turn of the call and the span of its words. */
export interface Evidence {
  /** Index of the turn among the call's final, non-empty entries. */
  turn: number;
  speaker: Speaker;
  /** Character offsets into that turn's text: the turn's text.slice(start, end) === text. */
  start: number;
  end: number;
  text: string;
}

/** One turn of the call, read once for everyone. */
export interface CallTurn {
  index: number;
  speaker: Speaker;
  text: string;
  utterance: Utterance;
  entities: Entities;
}

/** Someone other than the rep and the homeowner. */
export interface PersonFact {
  /** First name, when one was said. */
  name: string | null;
  relation: Relation;
  deceased: boolean;
  /** Lives in the home: a spouse or partner who is alive. */
  household: boolean;
  /** Named by the homeowner as part of the decision (a say in it, or someone to see it first). */
  decides: boolean;
  /** Named by the homeowner (not only by the rep). */
  namedByHomeowner: boolean;
  evidence: Evidence[];
}

/** An amount the rep named, read as money (a brag about counts or a model number is not). */
export interface MoneyFact {
  value?: number;
  min?: number;
  max?: number;
  per: MoneyEntity['per'];
  role: MoneyEntity['role'];
  evidence: Evidence;
}

/** One distinct priced offer the rep laid out: what it is (its sentence) and what it costs. */
export interface OfferFact {
  price: MoneyFact;
  /** The sentence that offers it. */
  sentence: string;
}

export type Answer = 'agreed' | 'declined' | 'countered' | 'none';

/** A day or time put to the other speaker for a next step, and what they said to it. */
export interface ProposalFact {
  by: Speaker;
  day: string | null;
  part: TimeEntity['part'];
  time: string | null;
  ampm: TimeEntity['ampm'];
  evidence: Evidence;
  answer: Answer;
  answerEvidence?: Evidence;
}

/** An ask for the decision or a next step (with or without a day), and the answer. */
export interface AskFact {
  firm: boolean;
  /** Leaned on a deadline ("if you sign tonight"). */
  deadline: boolean;
  evidence: Evidence;
  answer: Answer;
  answerEvidence?: Evidence;
}

export interface ObjectionFact {
  kind: ObjectionLabelKind;
  evidence: Evidence;
}

/** The homeowner's problem as a short noun phrase ("the leak"), with the line that says it. */
export interface ProblemFact {
  area: string;
  phrase: string;
  evidence: Evidence;
}

/** What happened in a call, each fact with the words it was read from. */
export interface CallFacts {
  turns: CallTurn[];
  /** The homeowner's first name, as the rep addressed them or they introduced themselves. */
  homeownerName: string | null;
  repName: string | null;
  people: PersonFact[];
  problem: ProblemFact | null;
  /** Money the rep named, in order. */
  money: MoneyFact[];
  /** Distinct priced offers (not a deposit, a saving, a brag or a deadline promo). */
  offers: OfferFact[];
  asks: AskFact[];
  proposals: ProposalFact[];
  /** The day and time the homeowner agreed to, if any. */
  agreedStep: ProposalFact | null;
  objections: ObjectionFact[];
}
