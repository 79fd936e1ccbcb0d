import { containsAny, has, lemmatise, normalise, parsePrice, parsePrices } from './match';
import * as L from './lexicon';
import { PERSONA_FACTS, TOPICS, type ObjectionKind, type Topic } from './personas';

export { containsAny, normalise, parsePrice };

/**
 * What a rep's turn means, read from text that may come from a weak offline recogniser:
 * lowercase, no punctuation, misheard words. Words are matched on their lemmas (wink-nlp) and
 * surface forms, by stem and with a one-letter tolerance for longer words; no signal depends
 * on punctuation. The dialogue manager (scripted.ts) decides what to do with it.
 */
export interface RepTurn {
  words: string[];
  lemmas: string[];
  isQuestion: boolean;
  /** An open question (what, how, why, tell me...) invites a fuller answer. */
  isOpenQuestion: boolean;
  /** Household topics asked or talked about, strongest first. */
  topics: Topic[];
  /** Mentions the trade's things (the furnace, the roof...). */
  domain: boolean;
  greeting: boolean;
  smallTalk: boolean;
  /** A question that is neither about the home nor small talk. */
  offTopic: boolean;
  nonEnglish: boolean;
  /** Insults or swearing at the homeowner. */
  rude: boolean;
  pressure: boolean;
  empathy: boolean;
  proof: boolean;
  warranty: boolean;
  financing: boolean;
  options: boolean;
  recommendation: boolean;
  /** Proposes a next step (a visit, an inspection, a booking). */
  close: boolean;
  goodbye: boolean;
  /** Hands the floor to the homeowner ("any questions for me?"). */
  invite: boolean;
  /** Asks what the homeowner makes of what was offered ("what are you thinking?", "thoughts?"). */
  asksOpinion: boolean;
  /** Checks back on what the rep just said or offered ("does that help?", "how does that sound?"). */
  checksBack: boolean;
  /** Offers something to keep: a brochure, a card, a written quote. */
  leavesInfo: boolean;
  /** Asks what holds the homeowner back ("what gives you pause?", "what's your hesitation?"). */
  probesConcern: boolean;
  confirm: boolean;
  priceTalk: boolean;
  /** A price the rep quoted, in dollars (the highest when several were named). */
  price: number | null;
  /** Every price named, in order: options put side by side. */
  prices: number[];
  /** Answers an objection of this kind (value, flexibility, both decision makers...). */
  addresses: ObjectionKind[];
  pitch: boolean;
}

const QUESTION_STARTS = new Set([
  'what',
  'how',
  'why',
  'when',
  'where',
  'who',
  'whose',
  'which',
  'do',
  'does',
  'did',
  'are',
  'is',
  'was',
  'were',
  'can',
  'could',
  'would',
  'will',
  'have',
  'has',
  'had',
  'may',
  'should',
  'shall',
  'any',
  'anything',
  'tell',
  'whats',
  'hows',
  'wanna',
  'want',
]);
const CLAUSE_OPENERS = new Set([
  'roughly',
  'ballpark',
  'approximately',
  'honestly',
  'quick',
  'curious',
  'so',
  'and',
  'but',
  'well',
  'okay',
  'ok',
  'um',
  'uh',
  'alright',
  'now',
  'anyway',
  'also',
  'then',
  'sorry',
  'oh',
  'right',
  'just',
]);
const OPEN_STARTS = ['what', 'how', 'why', 'tell', 'describe', 'walk', 'talk', 'whats', 'hows'];
const EMBEDDED_QUESTION = [
  'can you tell',
  'could you tell',
  'tell me',
  'i m curious',
  'i be curious',
  'i wonder',
  'wondering',
  'i was wonder',
  'mind if i ask',
  'do you know',
  'any idea',
  'would you say',
  'remind me',
  'walk me through',
  'what s',
  'how s',
  'you say',
  'again',
];
/** Spoken questions often end on a tag: "...right?", "...or not?", "right away or". */
const TAG_ENDINGS = ['right', 'yeah', 'correct', 'huh', 'or not', 'isn t it', 'no', 'or'];
const COMMON_ENGLISH = new Set([
  'the',
  'a',
  'you',
  'i',
  'is',
  'to',
  'and',
  'what',
  'it',
  'we',
  'your',
  'my',
  'this',
  'that',
  'of',
  'for',
  'with',
  'do',
  'have',
  'are',
  'can',
  'how',
]);

/** The households' spouses by name: asking about one asks who decides. */
const SPOUSE_NAMES = Object.values(PERSONA_FACTS).map((f) => f.household.spouseName.toLowerCase());

function topicScores(seqs: string[][]): Map<Topic, number> {
  const scores = new Map<Topic, number>();
  for (const topic of TOPICS) {
    const cues = L.TOPIC_CUES[topic];
    let score = 0;
    for (const key of cues.strong) if (has(seqs, [key])) score += 2;
    for (const key of cues.weak) if (has(seqs, [key])) score += 0.75;
    if (topic === 'decision' && has(seqs, SPOUSE_NAMES)) score += 2;
    if (score > 0) scores.set(topic, score);
  }
  return scores;
}

/**
 * Words that open a question as the first word of a sentence: the question starts without those
 * that also open statements or farewells there ("have a good one", "tell you what", "any time").
 */
const SENTENCE_QUESTION_STARTS = new Set(
  [...QUESTION_STARTS].filter(
    (w) =>
      !['whose', 'have', 'has', 'had', 'may', 'shall', 'any', 'anything', 'tell', 'wanna', 'want'].includes(
        w,
      ),
  ),
);

/** "What I'd suggest is...", "how we do it is...": a statement opened by a question word. */
function opensStatement(first: string | undefined, second: string | undefined): boolean {
  return ['what', 'how'].includes(first ?? '') && ['i', 'we'].includes(second ?? '');
}

const INVERTED_QUESTION =
  /\b(how|what|when|where|why|which|who)( (?!i\b|we\b)\w+){0,2} (are|is|do|does|did|would|will|can|could|was|were|should) (you|your|it|that|this|they|the|he|she|there)\b/;

function detectQuestion(text: string, words: string[], lemmas: string[]): boolean {
  if (text.includes('?')) return true;
  const first = words[0] ?? '';
  if (opensStatement(first, words[1])) return false;
  if (QUESTION_STARTS.has(first) && first !== 'have' && first !== 'tell') return true;
  if ((first === 'have' || first === 'tell') && !has([words], L.GOODBYE)) return true;
  for (let i = 1; i < words.length; i++)
    if (
      CLAUSE_OPENERS.has(words[i - 1]) &&
      QUESTION_STARTS.has(words[i]) &&
      words[i] !== 'have' &&
      !opensStatement(words[i], words[i + 1])
    )
      return true;
  // A question after a preface: "yeah, safety first. how soon are you wanting it done?"
  for (const sentence of text.split(/[.!;:]+/).slice(1)) {
    const w = normalise(sentence);
    if (SENTENCE_QUESTION_STARTS.has(w[0] ?? '') && !opensStatement(w[0], w[1])) return true;
  }
  // Unpunctuated: a question word with its verb and subject inverted close behind it ("so on a
  // scale of one to ten how important is the noise", "and when were you hoping to start").
  if (INVERTED_QUESTION.test(words.join(' '))) return true;
  if (has([words, lemmas], EMBEDDED_QUESTION)) return true;
  const tail = words.slice(-3).join(' ');
  return TAG_ENDINGS.some((t) => tail.endsWith(` ${t}`) && words.length > 3);
}

function detectNonEnglish(text: string, words: string[]): boolean {
  // Letters outside the Latin alphabet (Cyrillic, CJK, Arabic...) are dropped by normalise().
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const latin = text.normalize('NFD').match(/[a-zA-Z]/g)?.length ?? 0;
  if (letters > 0 && latin / letters < 0.5) return true;
  if (words.length === 0) return false;
  const foreign = words.filter((w) => L.NON_ENGLISH_WORDS.includes(w)).length;
  const english = words.filter((w) => COMMON_ENGLISH.has(w)).length;
  return foreign >= 2 && foreign / words.length >= 0.3 && english / words.length < 0.2;
}

/** Pressure: a commitment tied to urgency, or a pressure phrase, unless negated ("no need to decide today"). */
/**
 * Farewells by their shape: "have a (wonderful) evening", "talk to you soon", "see you on
 * saturday", "I should get going", "thanks for your time" closing a turn.
 */
function farewellForm(words: string[]): boolean {
  const text = words.join(' ');
  return (
    /\bhave an? (\w+ ){0,2}(day|evening|night|afternoon|morning|weekend|one|rest of)\b/.test(text) ||
    /\b(talk|speak|see|catch|chat)( to| with)? (you|ya)( \w+){0,3}$/.test(text) ||
    /\bi (should|better|d better|need to|gotta|got to|have to|must|ll|will|m gonna|am going to) (get going|be going|go|head out|head off|run|take off|leave|let you go|get out of)/.test(
      text,
    ) ||
    /\b(thanks|thank you|appreciate) (so much |again )?(for )?(your|the) time( (today|tonight|this (morning|afternoon|evening))| again)?$/.test(
      text,
    ) ||
    /\benjoy (the rest of )?your (day|evening|night|afternoon|weekend)\b/.test(text)
  );
}

function detectPressure(seqs: string[][], words: string[]): boolean {
  const joined = words.join(' ');
  if (
    /\b(no need to|don t have to|do not have to|don t need to|do not need to|doesn t have to|not asking you to|no pressure|no rush|never ask)\b/.test(
      joined,
    )
  )
    return has(seqs, ['last chance', 'sign here', 'just sign', 'not leave until']);
  // Pressure by its shape: an offer that will not last, or calling it foolish to wait.
  if (
    /\b(deal|price|offer|promotion|discount|special|rate|pricing)\b[a-z ]{0,60}\b(won t|will not|wont|not going to|isn t going to)\b[a-z ]{0,40}\b(around|last|available|here|valid|good|stay)\b/.test(
      joined,
    ) ||
    /\b(gotta|got to|have to|need to|must) (sign|decide|commit|buy|act|lock)\b/.test(joined) ||
    /\b(foolish|crazy|stupid|silly|insane|nuts|a mistake|regret)\b[a-z ]{0,40}\b(to )?(wait|pass|say no|not|miss|think about|sleep on)\b/.test(
      joined,
    )
  )
    return true;
  if (has(seqs, L.PRESSURE_ALONE)) return true;
  // Urgency put on the homeowner: prices about to rise, or "you should do it right now".
  if (
    /\b(price|prices|cost|costs|rate|rates|pricing)\b[a-z ]{0,20}\b(go|going|goes|will go|gonna go) up\b/.test(
      joined,
    ) ||
    /\byou (really )?(should|need to|have to|gotta|got to|must|ought to)\b[a-z ]{0,40}\b(right now|today|tonight|this week|immediately)\b/.test(
      joined,
    )
  )
    return true;
  const strongUrgency = L.URGENCY.filter((u) => u !== 'now');
  // "I'll email you the paperwork tonight": the rep promising something by a time is service,
  // not pressure, unless the homeowner is told they must act.
  const repPromise =
    /\b(i|we) (ll|will|can|could|d|would|m going to|re going to|be able to) (\w+ )?(email|send|text|mail|drop|bring|get|have|call|write|put|prepare|draw|leave|forward|order)\b/.test(
      joined,
    ) && !/\byou (need|have|must|gotta|got|should|ve got|ll have) to\b/.test(joined);
  if (repPromise) return false;
  const core = ['sign', 'decide', 'commit', 'buy', 'lock', 'answer', 'deposit', 'pay'];
  return (has(seqs, strongUrgency) && has(seqs, L.COMMIT)) || (has(seqs, ['now']) && has(seqs, core));
}

/** "Can I leave you a brochure?", "I'll leave my card", "let me drop off a written quote". */
const LEAVES_INFO =
  /\b(leave|drop off|drop|email|send|mail|text) (you )?(a |my |our |some |the |this |a few |an? )?(brochure|card|business card|info|information|pamphlet|flyer|literature|paperwork|written (quote|estimate)|quote in writing|samples?|catalog(ue)?)s?\b/;

/**
 * The rep asks for the homeowner's view of what is on the table: "what are you thinking?",
 * "thoughts?", "how do you feel about that?", "which one sounds better?", "where's your head at?".
 */
const ASKS_OPINION = new RegExp(
  '\\b(' +
    [
      'what (are|re|r) (you|ya) think(ing)?',
      'what (do|d|would|did) (you|ya) think',
      'whatcha think(ing)?',
      'any thoughts',
      'your thoughts',
      '^thoughts',
      'how (do|are) (you|ya) feel(ing)? about',
      'how (does|do|did|would) (that|this|it|those|these|all that|all this) (sound|look|feel|strike you)',
      'what (s|is) your (gut|take|feeling|reaction|impression|read)',
      '(where|how) (s|is|are) your head',
      'where (are|do) you (stand|land|at)',
      'what do you make of',
      'which (one|option|package|of (those|these|them|the two|the three)) (do|would|sounds?|makes?|feels?|works?|jumps?|speaks?|are you|s|is)',
      '(do|does|did) (either|any|one) of (those|these|them|the two|the three)',
      'what (s|is) (standing out|jumping out|appealing)',
      'how (s|does|is|do) (that|this|it|all that|all this|everything) sit',
    ].join('|') +
    ')\\b',
);

/**
 * The rep asks what holds the homeowner back: "what gives you pause?", "what's your biggest
 * concern?", "what's stopping you?", "what would it take?", "the number or something else?".
 */
const PROBES_CONCERN = new RegExp(
  '\\b(' +
    [
      '(give|gives|giving|gave) you pause',
      'hold(s|ing)? you back',
      'hesita(nt|nce|tion|te|ting)',
      'reluctan(t|ce)',
      'on the fence',
      'what (s|is|are|would be) (your|the) (biggest |main |number one |only )?(concern|worry|worries|hang ?up|reservation|sticking point|holdup|hold up|question mark|doubt)s?',
      'what (concerns|worries|bothers|scares) you',
      'what (s|is) (stopping|keeping|bothering|worrying|scaring) you',
      'what would (it take|you need|make you|need to happen|have to happen)',
      'what (s|is) on your mind',
      'anything (bothering|worrying|holding)',
      'what (part|piece) of (it|this|that)',
      '(the )?(number|price|money|cost) or (something|anything) else',
      'sit(ting)? (right|well) with you',
      'not sitting right',
      'what (s|is) making you (unsure|nervous|hesitate|hesitant|wait)',
      'what (do|would) you need to (see|hear|know|feel)',
      '(keep|keeps|keeping|stop|stops|stopping) you from',
      'stand(s|ing)? in (the|your) way',
      'get(ting)? in the way',
    ].join('|') +
    ')\\b',
);

export function analyseRepTurn(text: string): RepTurn {
  const allWords = normalise(text);
  // Long rambles: the question, if any, usually closes the turn.
  const words = allWords;
  const lemmas = lemmatise(allWords);
  // The same words without reporting clauses and fillers: "when did you say you wanted it"
  // reads as "when you want it".
  const core = lemmas
    .join(' ')
    .replace(/\b(do|would|did) you (say|mention|think)\b|\byou (say|mention)\b/g, ' ')
    .replace(/\b(um|uh|like|actually|really|ideally|exactly|basically|just|again|kinda)\b/g, ' ')
    .replace(/\b(what|how|who|when|where|why) (s|be|is)\b/g, '$1')
    .split(/\s+/)
    .filter(Boolean);
  const seqs = [words, lemmas, core];
  const tailWords = words.length > 40 ? words.slice(-25) : words;
  const tailSeqs = words.length > 40 ? [tailWords, lemmas.slice(-25)] : seqs;
  const isQuestion = detectQuestion(words.length > 40 ? tailWords.join(' ') : text, tailWords, tailSeqs[1]);
  const isOpenQuestion =
    isQuestion && (OPEN_STARTS.some((w) => tailWords.includes(w)) || has(tailSeqs, ['tell me', 'walk me']));

  const scores = topicScores(isQuestion ? tailSeqs : seqs);
  const domain = has(seqs, L.DOMAIN_WORDS);
  const smallTalk =
    has(seqs, L.SMALL_TALK) ||
    /\b(how about (them|those|that)|is that your|are those your|where did you get|love your|like your|nice|cute|lovely|beautiful|gorgeous)\b/.test(
      words.join(' '),
    );
  // A visit is proposed by the rep ("can I come by", "let us come out"), not asked about
  // ("did anybody else come out?"); booking words propose by themselves.
  const joinedWords = words.join(' ');
  const dayOrTime = has(seqs, L.DAY_OR_TIME);
  // A proposal can leave out who comes: "would Thursday evening work to come back?", a day or
  // time put to the homeowner as something that works, suits or is good for them.
  const proposesTime =
    dayOrTime &&
    isQuestion &&
    (has(seqs, L.CLOSE_ACTION) ||
      /\b(work|works|suit|suits|good|better|ok|okay|fine|free|available)\b/.test(joinedWords));
  let close =
    proposesTime ||
    has(seqs, L.CLOSE_BOOKING) ||
    (has(seqs, L.CLOSE_ACTION) && has([words], ['i', 'we', 'us', 'me', 'let', 'i ll', 'we ll'])) ||
    (dayOrTime &&
      has(seqs, [
        'work for',
        'does that work',
        'would that work',
        'suit',
        'sound',
        'free',
        'available',
        'good for you',
        'how about',
        'what about',
      ]));
  // "Before I measure anything, can I ask what made you call?": a written question after a
  // proposal-like preamble asks the question; the preamble proposes nothing. A check-back
  // ("I can come Thursday, does that work?") keeps the proposal.
  const lastQuestion = /([^.!?,;]*)\?\s*$/.exec(text)?.[1];
  if (close && lastQuestion && lastQuestion.trim().split(/\s+/).length >= 3) {
    const q = normalise(lastQuestion);
    const qSeqs = [q, lemmatise(q)];
    const qTopics = [...topicScores(qSeqs).values()].some((v) => v >= 2);
    const qCloses = has(qSeqs, L.CLOSE_BOOKING) || has(qSeqs, L.CLOSE_ACTION) || has(qSeqs, L.DAY_OR_TIME);
    if (qTopics && !qCloses) close = false;
  }
  // Weak cues alone make a topic only in a plain question (not a proposal), when nothing else competes.
  const plainQuestion = isQuestion && !close && !(smallTalk && !domain);
  let topics = [...scores.entries()]
    .filter(([, s]) => s >= 2)
    .sort((a, b) => b[1] - a[1])
    .map(([t]) => t);
  // Weak cues alone: the best-supported topic (ties in TOPICS order, the problem first).
  if (topics.length === 0 && plainQuestion && scores.size > 0)
    topics = [
      [...scores.entries()].sort((a, b) => b[1] - a[1] || TOPICS.indexOf(a[0]) - TOPICS.indexOf(b[0]))[0][0],
    ];
  // "Would that work better?", "how does that sound?": a check on what the rep just offered,
  // not a question about the household; only a strong cue still makes it one.
  const checksBack =
    isQuestion &&
    /\b((would|will|does|do|did|could|can|is) (that|this|it|those|these)( \w+)? (work|sound|help|fit|suit|make sense|be (ok|okay|fine|better|easier))|how (does|do|would|s) (that|this) (sound|work|look|feel)|make sense)\b/.test(
      tailWords.join(' '),
    );
  if (checksBack) topics = topics.filter((t) => (scores.get(t) ?? 0) >= 2);
  // "What if we looked at a single-stage unit?", "how about we start with the bedrooms?": the
  // rep suggests an option; nothing is asked about the household.
  const suggests = /\b(what if|how about|what about) (we|i|you|going|doing|look|start)\b/.test(joinedWords);
  // "How long have you lived here" is about the home; "how long will it take" about timing.
  if (topics.includes('home') && topics.includes('timeline') && has(seqs, ['how long have', 'how long be']))
    topics = topics.filter((t) => t !== 'timeline');
  // "Who…" with no other topic asks who decides.
  if (plainQuestion && topics.length === 0 && words[0] === 'who') topics = ['decision'];
  // An open question about the trade's things with no other topic asks about the problem.
  if (plainQuestion && topics.length === 0 && domain) topics = ['problem'];

  if (suggests && !close) topics = [];

  const goodbye =
    (has([tailWords.slice(-8), tailSeqs[1].slice(-8)], L.GOODBYE) || farewellForm(tailWords)) &&
    (!isQuestion || has([words], ['bye', 'goodbye', 'take care']) || /^have an? /.test(words.join(' ')));
  const profanity =
    has(
      [words],
      L.PROFANITY.filter((w) => w !== 'hell' && w !== 'damn'),
    ) || has([words], ['damn you', 'the hell']);
  const insult = has(seqs, L.INSULT);
  const rude = insult || (profanity && has([words], ['you', 'your', 'my']));
  const nonEnglish = detectNonEnglish(text, words);
  const prices = parsePrices(words);
  const price = prices.length ? Math.max(...prices) : null;
  const invite = isQuestion && has(seqs, L.INVITE);
  const tailText = tailWords.join(' ');
  const asksOpinion = (isQuestion || tailWords.length <= 3) && ASKS_OPINION.test(tailText);
  const probesConcern = PROBES_CONCERN.test(tailText);
  const greeting = words.length <= 25 && has([words.slice(0, 12)], L.GREETING);
  const relevant =
    topics.length > 0 ||
    domain ||
    close ||
    goodbye ||
    invite ||
    checksBack ||
    LEAVES_INFO.test(joinedWords) ||
    asksOpinion ||
    probesConcern ||
    price !== null ||
    has(seqs, L.PROOF) ||
    has(seqs, L.FINANCING) ||
    has(seqs, L.WARRANTY) ||
    has(seqs, L.OPTIONS);
  const offTopic = isQuestion && !relevant && !smallTalk && !greeting && !nonEnglish;

  return {
    words,
    lemmas,
    isQuestion,
    isOpenQuestion,
    topics,
    domain,
    greeting,
    // "How does the dog do on hard floors?" asks about the home, whatever the dog.
    smallTalk: smallTalk && topics.length === 0 && !(isQuestion && domain),
    offTopic,
    nonEnglish,
    rude,
    pressure: detectPressure(seqs, words),
    empathy: has(seqs, L.EMPATHY),
    proof: has(seqs, L.PROOF),
    warranty: has(seqs, L.WARRANTY),
    financing: has(seqs, L.FINANCING),
    options: has(seqs, L.OPTIONS),
    recommendation: !isQuestion && !close && has(seqs, L.RECOMMEND),
    close,
    goodbye,
    invite,
    asksOpinion,
    checksBack,
    leavesInfo: LEAVES_INFO.test(joinedWords),
    probesConcern,
    confirm: has(seqs, L.CONFIRM),
    prices,
    priceTalk:
      price !== null || has(seqs, ['price', 'cost', 'how much', 'expensive', 'cheap', 'discount', 'deal']),
    price,
    addresses: (Object.keys(L.ADDRESSES) as ObjectionKind[]).filter((k) => has(seqs, L.ADDRESSES[k])),
    pitch: has(seqs, [
      'we be the best',
      'number one',
      'best in',
      'top rate',
      'our company',
      'we offer',
      'we provide',
      'we specialize',
      'we install',
      'our product',
      'we do',
      'we have',
      'energy star',
      'save you',
      'lifetime',
    ]),
  };
}

/** Loads the lemmatiser's model and compiles the word classes ahead of the first turn. */
export function warmUp(): void {
  analyseRepTurn('hi, what problems are you having with the house?');
}

/** Topics a line of the homeowner's talks about (used to judge answers in the eval). */
export function lineTopics(text: string): Topic[] {
  const words = normalise(text);
  const seqs = [words, lemmatise(words)];
  return [...topicScores(seqs).entries()].filter(([, s]) => s >= 2).map(([t]) => t);
}
