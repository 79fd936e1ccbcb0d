import { endsWithQuestionMark } from '../text/marks';
import type { QuestionKind } from '../../../core/conversation-metrics';
import { countWords } from '../../../core/transcript';
import { normalizeText, splitSentences } from '../text/normalise';
import { findPeople } from '../entities/people';

// "How'd", "what'd": a contracted "did" ("how'd it go") asks as the full form does.
const WH_OPEN = /^(what|whats|why|how|howd|whatd|whyd)\b/;
const HOW_QUANTITY = /^how (many|much|long|old|often|soon|far|big|late|early)\b/;
const WH_FACTUAL = /^(where|wheres|whered|when|whens|whend|who|whos|whod|which|whose|whom)\b/;
const INVITE =
  /^((can|could|would|will) you (please |just )?)?(tell me|walk me|describe|talk me|help me understand|explain|anything else|what else)\b/;
const AUX =
  '(do|does|did|are|is|was|were|would|could|can|should|will|have|has|had|may|might|shall|wouldnt|couldnt|cant|dont|doesnt|didnt|arent|isnt|wasnt|havent|hasnt|wont|shouldnt)';
const PRON_OR_DET =
  '(you|your|we|they|it|he|she|i|there|this|that|these|those|the|a|any|anyone|anybody|someone|everything|things)';
const AUX_INVERSION = new RegExp(`^${AUX} ${PRON_OR_DET}\\b`);
const ASK_EMBEDDED = /^(can|could|may|do you mind if) (i|we) ask (you )?(what|why|how)\b/;
const DISCOURSE =
  /^((so|and|but|okay|ok|alright|all right|well|um|uh|now|great|perfect|right|yeah|yes|oh|got it|gotcha|got you|cool|sure|then|just|hey|hi there|hi|hello|like|you know|and then|curious|out of curiosity|quick question|awesome|nice|for sure|totally|makes sense|that makes sense|fair enough|i see|i hear you|understood)\b[\s,]*)+/;

const WH_STATEMENT = /^(what|how|why) (i|we|you|they|it)( \w+){1,4} (is|was|are)\b/;

/** Classifies one clause as a question (and which kind), or null when it is a statement. */
export function classifyQuestion(sentence: string): QuestionKind | null {
  const marked = endsWithQuestionMark(sentence.trim());
  const norm = normalizeText(sentence).replace(DISCOURSE, '');
  if (!norm) return null;
  // "What we do is...", "how you'd price it is...": a statement built on a question word.
  if (!marked && WH_STATEMENT.test(norm)) return null;
  const kind = questionKindOf(norm);
  if (kind) return kind;
  if (marked) {
    // "Before I climb up, what's been happening with the roof?": the question is the clause the
    // mark ends, after a lead-in set off by a comma, colon or semicolon.
    const clauses = sentence.split(/[,;:]/).slice(1).reverse();
    for (const clause of clauses) {
      const k = questionKindOf(normalizeText(clause).replace(DISCOURSE, ''));
      if (k) return k;
    }
    // "Hi there, what got you looking?": the question starts after a greeting or aside.
    const inner = [...norm.matchAll(EMBEDDED_QUESTION)][0];
    if (inner?.index) return questionKindOf(norm.slice(inner.index)) ?? 'closed';
  }
  // A question mark on a fragment ("Golden?", "Six years?") is still a question, and closed.
  return marked ? 'closed' : null;
}

const SMALL_TALK =
  /^(how are you|how re you|hows it going|how s it going|how are things|how have you been|how you doing|how do you do|hows your day|how s your day)( (doing|today|tonight|this (morning|afternoon|evening)|going|guys|folks|there))*$/;

/** A greeting ("How are you?"): a question, but a pleasantry rather than discovery. */
export function isSmallTalk(question: string): boolean {
  return SMALL_TALK.test(normalizeText(question).replace(DISCOURSE, ''));
}

function questionKindOf(norm: string): QuestionKind | null {
  if (ASK_EMBEDDED.test(norm)) return 'open';
  if (INVITE.test(norm)) return 'open';
  if (HOW_QUANTITY.test(norm)) return 'closed';
  if (WH_OPEN.test(norm)) return /\b(or)\b/.test(norm) && norm.split(' ').length < 12 ? 'closed' : 'open';
  if (WH_FACTUAL.test(norm)) return 'closed';
  if (AUX_INVERSION.test(norm)) return 'closed';
  return null;
}

/** Where a question clause starts inside unpunctuated text ("so what got you looking we do..."). */
const EMBEDDED_QUESTION = new RegExp(
  `\\b(?:(what|whats|why|how|hows)(?: (?:many|much|long|old|often))? (?:do|does|did|is|are|was|were|would|could|can|should|have|has|had|got|made|makes|brings|brought|matters|s|going|happening|your|the|been|worries|worried|bothers|bugs|prompted|led|kind|sort|most|else)|(?:howd|whatd|whyd|whered|whend|whod) (?:you|your|they|he|she|it|we|the|that|this|i|everything|things)|how (?:important|bad|big|serious|soon|quickly|likely|comfortable|happy|sure|set) (?:is|are|was|were|would|do|does|did|will)|(?:how|what) about|(?:which|where|when|who) (?:\\w+ )?(?:is|are|do|does|did|was|were)|${AUX} (?:you|your|we|they|it|he|she|i|there)|tell me|walk me through)\\b`,
  'g',
);
const NOT_A_CLAUSE_START =
  /\b(if|that|what|when|how|why|where|which|who|whether|as|than|so|because|to|and i|what i)$/;

/** Finds question clauses in one utterance, with or without punctuation. */
export function findQuestions(text: string): { text: string; kind: QuestionKind }[] {
  const found: { text: string; kind: QuestionKind }[] = [];
  for (const sentence of splitSentences(text)) {
    const hasTerminal = /[.?!…]\s*$/.test(sentence);
    const kind = classifyQuestion(sentence);
    if (kind) found.push({ text: sentence, kind });
    if (hasTerminal || countWords(sentence) < 6) continue;
    // No punctuation: look for question clauses inside the run-on text.
    const norm = normalizeText(sentence);
    // Where the last question found starts, in words: a new one cannot start inside its first
    // few words ("and how long have you been": one question, not "how long" and "have you";
    // "tell me a little bit about what's going on": one), unless "and", "or" joins a new one.
    let lastStart = kind ? countWords(norm) - countWords(norm.replace(DISCOURSE, '')) : -Infinity;
    for (const m of norm.matchAll(EMBEDDED_QUESTION)) {
      const before = norm.slice(0, m.index).trim();
      if (!before) continue; // the start was already classified
      const at = countWords(before);
      // "what we do is we come out": the verb of a statement built on a question word.
      if (/\b(what|how|why) (i|we|you|they|it)( \w+){1,4}$/.test(before) && /^(is|was|are)\b/.test(m[0]))
        continue;
      const joined = /\b(and|or|also|plus|but|then)$/.test(before);
      if (at <= lastStart || (at - lastStart < 7 && !joined)) continue;
      const lastWords = before.split(' ').slice(-2).join(' ');
      // A modal never follows "to": "...than they have to can i ask how" starts a new clause.
      const modalAfterTo =
        /\bto$/.test(before) && /^(can|could|would|will|shall|should|may|might)\b/.test(m[0]);
      if (
        !modalAfterTo &&
        (NOT_A_CLAUSE_START.test(lastWords) || NOT_A_CLAUSE_START.test(before.split(' ').pop() ?? ''))
      )
        continue;
      const clause = norm.slice(m.index);
      const k = questionKindOf(clause) ?? 'closed';
      lastStart = at;
      found.push({ text: clause.split(' ').slice(0, 14).join(' '), kind: k });
    }
  }
  return found;
}

/** Lead-ins before the second alternative: "or were you leaning more towards real wood". */
const ALT_LEAD =
  /^((were|are|is|was|do|did|would|will) (you|it|they|we|that|this) )?((leaning|thinking|going|looking|more) )*((towards|toward|about|at|for|of) )?((just|like|maybe|more|only|rather) )*((the|a|an|your|ur) )?/;
/** What closes an alternative: a clause about it ("the back door thats sticking"). */
const ALT_TAIL = /\b(that s|thats|that is|which|that|at all|then|instead|though|do you think|you think)\b.*$/;
/** What trails the first alternative: "vinyl plank at all, or...". */
const LEFT_TAIL = /\b(at all|then|instead|though|maybe|perhaps)$/;

/** Words that make a side of an "or" a clause rather than a thing to choose. */
const CLAUSE_WORDS = new Set(
  (
    'i you he she we they it me him her us them my your his our their its this these those ' +
    'is are was were be been being am do does did done have has had can could will would should ' +
    'may might must shall get got go going make making call deciding decide decides think weigh ' +
    'say said want wants need needs'
  ).split(' '),
);

/** Words that make a yes/no question of an "or" ("...or not", "or what", "or something"). */
const NOT_A_CHOICE =
  /^(not|no|nah|what|something|anything|whatever|so|both|neither|either|yes|something else|anything else|what else|somewhere else|someone else|somebody else|other|others|the other)$/;

/**
 * The two things a question asks the listener to choose between, as said: "Have you thought
 * about vinyl plank at all, or were you leaning more towards real wood?" gives ["vinyl plank",
 * "real wood"]; "was it the front door or the back door thats sticking" gives ["front door",
 * "back door"]. Null for a yes/no question ("or not"), for a day offered ("Tuesday or Thursday?",
 * read as a proposal) or when either side is more than four words.
 */
export function alternativesAsked(text: string): [string, string] | null {
  const sentences = splitSentences(text);
  const asked = [...sentences].reverse().find((s) => s.includes('?')) ?? sentences.at(-1) ?? text;
  const n = normalizeText(asked).replace(DISCOURSE, '');
  const at = n.lastIndexOf(' or ');
  if (at < 0) return null;
  const right = n
    .slice(at + 4)
    .replace(ALT_LEAD, '')
    .replace(ALT_TAIL, '')
    .trim();
  const leftWords = n.slice(0, at).replace(LEFT_TAIL, '').trim().split(' ').filter(Boolean);
  const rightWords = right.split(' ').filter(Boolean);
  if (!rightWords.length || rightWords.length > 4 || NOT_A_CHOICE.test(right)) return null;
  // The first alternative is as long as the second (a word more at most), after its lead-in.
  const take = Math.min(leftWords.length, rightWords.length + 1);
  const kept = leftWords.slice(-take);
  // "...were you picturing laminate": what comes after the asking words.
  while (kept.length > 1 && (CLAUSE_WORDS.has(kept[0]) || kept[0].endsWith('ing'))) kept.shift();
  const left = kept
    .join(' ')
    .replace(/^.*\b(about|towards|toward|is it|was it|it|the|a|an|your|ur|like|more|just)\b /, '')
    .trim();
  if (!left || left === right || NOT_A_CHOICE.test(left)) return null;
  // Two things to pick from, not two clauses ("is it just you deciding or does your wife weigh in").
  if ([left, right].some((side) => side.split(' ').some((w) => CLAUSE_WORDS.has(w)))) return null;
  return [left, right];
}

/**
 * "Is the furnace in the basement or a closet?": an either-or between two places, the first said
 * after "in", "on" or "under" and neither a doing word ("a stain on the ceiling, or is it
 * dripping?" is not). The two places, or null.
 */
export function placesAsked(text: string): [string, string] | null {
  const pair = alternativesAsked(text);
  if (!pair) return null;
  const [a, b] = pair;
  if ([a, b].some((side) => /ing$/.test(side))) return null;
  const first = a.replace(/[^a-z ]/g, '');
  return new RegExp(`\\b(in|on|under) (the |a |an )?${first}\\b`).test(normalizeText(text)) ? pair : null;
}

/** Whether a description puts something in this place ("the furnace is in the basement"). */
export function placedIn(description: string, place: string): boolean {
  const last = normalizeText(place).split(' ').at(-1) ?? '';
  return (
    last.length > 2 && new RegExp(`\\b(in|on|under|off) the ${last}\\b`).test(normalizeText(description))
  );
}

const QUESTION_WORDS = new Set([
  'what',
  'how',
  'why',
  'when',
  'where',
  'who',
  'which',
  'is',
  'are',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'will',
  'have',
  'has',
]);
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'sir', 'maam']);

/**
 * "Marisol?", "Mr. Pruitt?", "Nee-am?": a name checked at the door or said back to get it right,
 * not a question about the household.
 */
export function isNameCheck(question: string, known: readonly string[] = []): boolean {
  const words = normalizeText(question).split(' ').filter(Boolean);
  if (!words.length || words.length > 3 || QUESTION_WORDS.has(words[0])) return false;
  if (words.some((w) => TITLES.has(w))) return true;
  const names = new Set(known.map((n) => normalizeText(n)));
  if (words.some((w) => names.has(w))) return true;
  const people = findPeople(question, { speaker: 'rep' });
  if (people.some((p) => p.name !== null)) return true;
  // A name said the way it sounds ("Nee-am?"): one or two capitalised words and nothing else.
  const raw = question
    .replace(/[?.!,]/g, '')
    .trim()
    .split(/\s+/);
  return (
    raw.length <= 2 && raw.every((w) => /^[A-Z][a-z]*(-[a-z]+)*$/.test(w)) && raw.some((w) => w.includes('-'))
  );
}
