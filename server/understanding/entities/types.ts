/**
 * What an utterance names: amounts of money, days and times, people. The fields are the
 * corpus labels (corpus/GUIDE.md, "Entities"), plus the character span each was read from.
 */

export interface EntityContext {
  speaker?: 'rep' | 'homeowner';
  /** The other speaker's line just before, when there is one. */
  previous?: string;
}

export interface Span {
  /** Character offsets into the text read: text.slice(start, end) === this.text. */
  start: number;
  end: number;
  text: string;
}

export type MoneyPer = 'month' | 'year' | 'sqft' | 'hour' | null;
export type MoneyRole = 'price' | 'budget' | 'quote' | 'deposit' | 'saving' | 'paid' | 'other';

/** One amount (`value`) or a range (`min`, `max`). */
export interface MoneyEntity extends Span {
  value?: number;
  min?: number;
  max?: number;
  per: MoneyPer;
  role: MoneyRole;
}

export type DayPart = 'morning' | 'afternoon' | 'evening' | 'night' | 'lunch';
export type TimeRole =
  'proposed' | 'agreed' | 'declined' | 'confirmed' | 'history' | 'described' | 'deadline' | 'other';

export interface TimeEntity extends Span {
  /** A weekday, today, tonight, tomorrow, weekend, next week, this week, "june 14", "14", or null. */
  day: string | null;
  part: DayPart | null;
  /** 12-hour clock time without am/pm ("4:30"), or null. */
  time: string | null;
  ampm: 'am' | 'pm' | null;
  role: TimeRole;
}

export type Relation =
  | 'spouse'
  | 'partner'
  | 'child'
  | 'parent'
  | 'sibling'
  | 'grandchild'
  | 'relative'
  | 'neighbour'
  | 'friend'
  | 'landlord'
  | 'tenant'
  | 'contractor'
  | 'self'
  | 'addressee'
  | 'colleague'
  | 'other';

export interface PersonEntity extends Span {
  name: string | null;
  relation: Relation;
  status: 'deceased' | 'away' | null;
  /** True if the line gives this person a say in the decision, false if it says they have none. */
  decides: boolean | null;
}

export interface Entities {
  money: MoneyEntity[];
  times: TimeEntity[];
  people: PersonEntity[];
}
