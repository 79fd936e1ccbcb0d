import type { ItemToken } from 'wink-nlp';
import { nlp } from '../nlp';

/**
 * Whether the rep's words so far (a live caption: lowercase, unpunctuated, sometimes misheard)
 * read as a finished turn, judged by the shape of the clause rather than by particular words:
 *
 * - `incomplete`: it cannot end here. It trails off on a filler or a word that needs more after
 *   it: a conjunction ("and", "because"), an article or possessive ("the", "your"), a
 *   preposition that is not stranded ("about", where "what's it like" may end on one), the
 *   infinitive "to", a trailing comma or dash.
 * - `question`: a finished question: it opens (after "so", "okay"...) with a question word or an
 *   auxiliary before its subject ("is it", "can you"), or closes on a tag ("right", "isn't it").
 * - `statement`: a finished clause with a verb ("we replace the whole unit", "let me show you").
 * - `fragment`: finished words without a verb ("about two weeks", "in eighteen thirteen"): a
 *   complete answer in conversation, or the first part of a longer sentence.
 * - `unknown`: nothing to judge, only discourse markers ("okay", "so", "yeah"), or an ending
 *   that is as often finished as not ("i think we should", "do you have").
 */
export type Completeness = 'incomplete' | 'question' | 'statement' | 'fragment' | 'unknown';

/** Sounds that hold the floor rather than carry meaning. */
const FILLERS = new Set(['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'hmm', 'mm', 'ah']);
/**
 * Words that open or glue talk without adding content; a turn made only of them tells nothing,
 * and they are skipped when looking for how a question opens.
 */
const DISCOURSE = new Set([
  'so',
  'okay',
  'ok',
  'well',
  'and',
  'but',
  'now',
  'alright',
  'right',
  'yeah',
  'yes',
  'no',
  'oh',
  'hi',
  'hey',
  'hello',
  'great',
  'perfect',
  'sure',
  'cool',
  'like',
  'just',
  'then',
  'anyway',
  'actually',
  'basically',
]);
/**
 * Function words that always need a word after them, whatever the tagger says. ("to", "of" and
 * "with" may end a question that strands them, "who did you talk to": the parse decides.)
 */
const HANGING = new Set([
  'the',
  'a',
  'an',
  'if',
  'that',
  'which',
  'my',
  'your',
  'our',
  'their',
  'its',
  'and',
  'or',
  'but',
  'so',
  'because',
  'well',
]);
/** Particles of phrasal verbs, which end a clause: "set it up", "come on in", "we'll head out". */
const PARTICLES = new Set([
  'up',
  'down',
  'out',
  'in',
  'on',
  'off',
  'over',
  'back',
  'away',
  'around',
  'along',
  'through',
  'together',
  'apart',
  'aside',
  'forward',
  'by',
]);
/** Verbs whose "to" starts an infinitive still to come ("what would you like to ..."). */
const CATENATIVE =
  /^(want|wanted|wants|wanna|like|liked|love|need|needed|needs|have|has|had|going|got|try|trying|tried|plan|planning|hope|hoping|wish|decide|decided|able|supposed|used|ought|happy|glad|ready|about|seem|seems|seemed|expect|prefer)$/;
const WH = new Set(['what', 'when', 'where', 'who', 'whom', 'whose', 'which', 'why', 'how']);
/** Auxiliaries and modals that open a yes/no question when the subject follows them. */
const INVERTING = new Set([
  'do',
  'does',
  'did',
  'is',
  'are',
  'was',
  'were',
  'am',
  'have',
  'has',
  'had',
  'can',
  'could',
  'will',
  'would',
  'should',
  'shall',
  'may',
  'might',
  'must',
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "wasn't",
  "haven't",
  "hasn't",
  "can't",
  "couldn't",
  "won't",
  "wouldn't",
  "shouldn't",
]);
const SUBJECT_POS = new Set(['PRON', 'DET', 'NOUN', 'PROPN', 'NUM', 'ADJ']);
/** Words that turn a statement into a question at its end ("it's about ten years old right"). */
const TAGS = new Set(['right', 'correct', 'yeah', 'huh', 'ok', 'okay']);
const TAG_PAIRS =
  /\b(is|was|are|were|do|does|did|have|has|had|can|could|will|would|should)n't (it|he|she|they|you|we|i|there|that)$/;
/** "how about ...", "what about ..." open a question with the preposition right after. */
const OPEN_QUESTIONS = /^(how|what) about\b/;

interface Token {
  word: string;
  pos: string;
}

function tokens(text: string): Token[] {
  const its = nlp().its;
  const out: Token[] = [];
  nlp()
    .readDoc(text)
    .tokens()
    .each((t: ItemToken) => {
      if (t.out(its.type) !== 'word') return;
      out.push({ word: String(t.out()).toLowerCase(), pos: String(t.out(its.pos)) });
    });
  // The tagger splits contractions ("what" "'s", "do" "n't"); put them back together.
  const merged: Token[] = [];
  for (const t of out) {
    const prev = merged[merged.length - 1];
    if (prev && t.word.startsWith("'")) prev.word += t.word;
    else if (prev && t.word === "n't") prev.word += t.word;
    else merged.push({ ...t });
  }
  return merged;
}

export function completeness(text: string): Completeness {
  const trimmed = text.trim().toLowerCase();
  if (!trimmed) return 'unknown';
  // Typed or punctuated text says it outright.
  if (/(\.\.\.|…|,|-|–|—)$/.test(trimmed)) return 'incomplete';
  const clean = trimmed
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean) return 'unknown';
  const toks = tokens(clean);
  if (!toks.length) return 'unknown';
  const last = toks[toks.length - 1];
  if (FILLERS.has(last.word) || HANGING.has(last.word)) return 'incomplete';
  const content = toks.filter((t) => !FILLERS.has(t.word) && !DISCOURSE.has(t.word));
  if (!content.length) return 'unknown';
  const opening = toks.findIndex((t) => !FILLERS.has(t.word) && !DISCOURSE.has(t.word));
  const head = toks.slice(opening);
  const words = head.map((t) => t.word).join(' ');
  const isWh = (t: Token) => WH.has(t.word.replace(/'.*$/, ''));
  const whFirst = isWh(head[0]);
  const inverted =
    INVERTING.has(head[0].word) && head.length > 1 && SUBJECT_POS.has(head[1].pos) && head[1].word !== 'not';

  if (last.pos === 'CCONJ' || last.pos === 'SCONJ' || last.pos === 'DET') return 'incomplete';
  // A question word earlier with a verb after it can strand a preposition at the end ("what's
  // the weather like", "who did you talk to"); "how many of" has no verb and is unfinished.
  const wh = toks.findIndex(isWh);
  const verbAfterWh =
    wh >= 0 &&
    (/'/.test(toks[wh].word) ||
      toks.slice(wh + 1, -1).some((t) => t.pos === 'VERB' || t.pos === 'AUX' || /'/.test(t.word)));
  const stranded = verbAfterWh && !OPEN_QUESTIONS.test(words);
  const before = toks[toks.length - 2];
  if (last.word === 'to' && (!stranded || (before && CATENATIVE.test(before.word)))) return 'incomplete';
  if (last.pos === 'ADP') {
    // Stranded by a question word ("what's the weather like", "who did you go with"), or the
    // particle of a phrasal verb ("come on in", "set it up"), it ends a clause; otherwise the
    // object is still to come ("i wanted to ask you about").
    const particle =
      PARTICLES.has(last.word) &&
      before &&
      (before.pos === 'VERB' || (before.pos === 'PRON' && toks[toks.length - 3]?.pos === 'VERB'));
    if (!stranded && !particle) return 'incomplete';
  }
  // "i think we should", "do you have", "yes we can": finished as often as not.
  if (last.pos === 'AUX') return 'unknown';

  if (whFirst || inverted || OPEN_QUESTIONS.test(words)) return 'question';
  if (TAG_PAIRS.test(words) || (TAGS.has(last.word) && content.length >= 3 && toks.length >= 4))
    return 'question';
  if (head.some((t) => t.pos === 'VERB' || t.pos === 'AUX')) return 'statement';
  return 'fragment';
}
