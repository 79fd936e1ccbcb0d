import type { LifeSubject, ObjectionKind, Topic } from '../types';
import closing from './closing.json';
import life from './life.json';
import selling from './selling.json';
import social from './social.json';
import topics from './topics.json';

/**
 * Word classes the readers listen for, kept as data (one JSON file per family, each list with a
 * line saying what it means). Entries are lemmas or short lemma phrases ("how old", "set aside");
 * words are matched on their lemmas and surface forms, by stem and with a one-letter tolerance for
 * longer words (text/match.ts). Classes describe meaning, not any one phrasing: a new phrasing is
 * added as labelled corpus lines first, then here.
 */

export const THEIR_WORD: string[] = topics.THEIR_WORD.cues;
export const TOPIC_CUES = topics.TOPIC_CUES.cues as Record<Topic, { strong: string[]; weak: string[] }>;
export const DOMAIN_WORDS: string[] = topics.DOMAIN_WORDS.cues;
export const FOLLOW_UP: string[] = topics.FOLLOW_UP.cues;

export const SMALL_TALK: string[] = social.SMALL_TALK.cues;
export const GREETING: string[] = social.GREETING.cues;
export const GOODBYE: string[] = social.GOODBYE.cues;
export const INVITE: string[] = social.INVITE.cues;
export const CONFIRM: string[] = social.CONFIRM.cues;
export const EMPATHY: string[] = social.EMPATHY.cues;
export const PROFANITY: string[] = social.PROFANITY.cues;
export const INSULT: string[] = social.INSULT.cues;
export const NON_ENGLISH_WORDS: string[] = social.NON_ENGLISH_WORDS.cues;

export const PROOF: string[] = selling.PROOF.cues;
export const WARRANTY: string[] = selling.WARRANTY.cues;
export const FINANCING: string[] = selling.FINANCING.cues;
export const OPTIONS: string[] = selling.OPTIONS.cues;
export const RECOMMEND: string[] = selling.RECOMMEND.cues;
export const ADDRESSES = selling.ADDRESSES.cues as Record<ObjectionKind, string[]>;

export const URGENCY: string[] = closing.URGENCY.cues;
export const COMMIT: string[] = closing.COMMIT.cues;
export const PRESSURE_ALONE: string[] = closing.PRESSURE_ALONE.cues;
export const CLOSE_BOOKING: string[] = closing.CLOSE_BOOKING.cues;
export const CLOSE_ACTION: string[] = closing.CLOSE_ACTION.cues;
export const DAY_OR_TIME: string[] = closing.DAY_OR_TIME.cues;

export const LIFE_CUES = life.LIFE_CUES.cues as Record<LifeSubject, string[]>;
