/**
 * The marks of a line as said or typed: whether it ends a sentence or a question, whether it holds
 * any sentence or clause mark at all (a recogniser's text holds none), and its words split on
 * whitespace. Readers and the coach use these rather than patterns of their own.
 */

/** Ends on a full stop, question mark or exclamation mark: a recogniser's cut-off fragment does not. */
export const endsSentence = (text: string): boolean => /[.?!]\s*$/.test(text);

/** Ends on a question mark. */
export const endsWithQuestionMark = (text: string): boolean => /\?\s*$/.test(text);

/** Holds a full stop, question mark or exclamation mark anywhere (recogniser text holds none). */
export const hasSentenceMark = (text: string): boolean => /[.?!]/.test(text);

/** Holds a question mark anywhere. */
export const hasQuestionMark = (text: string): boolean => text.includes('?');

/** Holds a comma. */
export const hasComma = (text: string): boolean => text.includes(',');

/** Holds any mark that ends a clause or sentence (. , ; ! ?). */
export const hasClauseMark = (text: string): boolean => /[.,;!?]/.test(text);

/** The clauses of a line as said: its pieces between . , ; ! and ?. */
export const clausesOf = (text: string): string[] => text.split(/[.,;!?]/);

/** The pieces of a text between runs of whitespace, as said (with their punctuation). */
export const spaceSeparated = (text: string): string[] => text.split(/\s+/);

/** Runs of whitespace made single spaces. */
export const singleSpaced = (text: string): string => text.replace(/\s+/g, ' ');

/**
 * Undoes the commonest recogniser slips that change a phrase's grammar, in normalized text:
 * "want too see" -> "want to see", "your welcome" -> "youre welcome", "too my" -> "to my".
 */
export function repairRecogniserSlips(norm: string): string {
  return norm
    .replace(
      /\btoo (see|be|look|do|get|go|come|make|have|talk|think|show|meet|decide|sign|pick|start|keep|ask|know)\b/g,
      'to $1',
    )
    .replace(/\byour (welcome|right|probably|going|gonna|looking|paying|getting|not)\b/g, 'youre $1')
    .replace(/\btoo (my|your|our|his|their|him|them|me|us)\b/g, 'to $1');
}

/** Whether normalized text says the given (normalized) word or name as a whole word. */
export const saysWord = (norm: string, word: string): boolean => new RegExp(`\\b${word}\\b`).test(norm);
