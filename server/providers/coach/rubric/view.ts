import type { EngineQuality } from '../../../../core/engines';
import { quotable, readsClearly } from '../../../understanding/text/quote';
import { spaceSeparated } from '../../../understanding/text/marks';

/**
 * How the coaching speaks of this call: a role-play with a named homeowner, or a recording of a
 * real call with a customer; whether the rep typed; whether quotes come from basic recognition.
 */
export interface CallView {
  source: 'roleplay' | 'recording';
  typed: boolean;
  recognition?: EngineQuality;
  /** The homeowner's name in a role-play, else ''. */
  name: string;
  /** How the text names the other person: the name, "the homeowner" or "the customer". */
  who: string;
  /**
   * The rep's words came without question marks (a recogniser's text): questions can be read, but
   * not counted well enough to state a number.
   */
  unpunctuated: boolean;
}

/** Rep words under which a call is too short to say whether it was punctuated. */
const PUNCTUATION_MIN_WORDS = 40;

export function callView(input: {
  personaName?: string;
  source?: 'roleplay' | 'recording';
  input?: 'speech' | 'typed';
  recognition?: EngineQuality;
  transcript?: readonly { role: string; transcript: string }[];
}): CallView {
  const source = input.source ?? 'roleplay';
  const name = source === 'recording' ? '' : (input.personaName ?? '');
  const rep = (input.transcript ?? []).filter((e) => e.role === 'user').map((e) => e.transcript);
  const repWords = rep.reduce((n, t) => n + spaceSeparated(t).filter(Boolean).length, 0);
  return {
    unpunctuated: repWords >= PUNCTUATION_MIN_WORDS && !rep.some((t) => t.includes('?')),
    source,
    typed: input.input === 'typed',
    recognition: input.recognition,
    name,
    who: name || (source === 'recording' ? 'the customer' : 'the homeowner'),
  };
}

/** "the homeowner" in a finding's wording, said as this call's person ("Linda", "the customer"). */
export function personal(text: string, view: CallView): string {
  if (view.who === 'the homeowner') return text;
  const possessive = view.who.startsWith('the ') ? `${view.who}'s` : `${view.who}'s`;
  return text.replaceAll("the homeowner's", possessive).replaceAll('the homeowner', view.who);
}

/** Whether a line of the call may be quoted: from basic recognition only spans that read clearly. */
export function mayQuote(text: string, view: CallView): boolean {
  return view.recognition === 'basic' ? readsClearly(text) : text.trim().length > 0;
}

/** A quote as shown: the words as said, at most thirty of them. */
export const shown = (text: string) => quotable(text, 30);

export const sentence = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
