import { countWords, isFinal, type TranscriptEntry } from './transcript';

/**
 * Conversation metrics measured from a transcript (never guessed by a model). Entries carry
 * only the time each utterance ended, so each turn owns the window from the previous entry's
 * end to its own end; time-based metrics are null when timestamps carry no information.
 */
export interface ConversationMetrics {
  version: 1;
  durationSec: number | null;
  repWords: number;
  homeownerWords: number;
  repTurns: number;
  homeownerTurns: number;
  /** Rep share of all spoken words, 0-100. */
  talkRatioWordsPercent: number;
  /** Rep share of the speaking time (turn windows), 0-100. */
  talkRatioTimePercent: number | null;
  /** Longest run of consecutive rep entries (the recogniser splits long monologues). */
  longestMonologueWords: number;
  longestMonologueSec: number | null;
  questions: { total: number; open: number; closed: number };
  questionsPerMinute: number | null;
  /** Speaker switches per minute. */
  interactivityPerMinute: number | null;
  /** Mean estimated pause before the rep answers the homeowner. */
  patienceSec: number | null;
  fillerWords: number;
  fillersPerMinute: number | null;
  /** Rep words per minute of the rep's turn windows. */
  paceWpm: number | null;
  pressurePhrases: string[];
}

export type QuestionKind = 'open' | 'closed';

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

/** Lowercase, apostrophes removed, punctuation collapsed: the form every phrase rule is written against. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/'/g, '')
    .replace(/[^\p{L}\p{N}$%\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Rules are written with contractions spaced ("that s", "you d"); normalized text fuses them
 * ("thats", "youd"), while some recognisers split them. This makes the space optional.
 */
export function looseContractions(re: RegExp): RegExp {
  const source = re.source.replace(/([a-z]) (s|d|re|ve|t|ll|m)(?=[\s|)\\?]|$)/g, '$1 ?$2');
  return new RegExp(source, re.flags);
}

/** Splits on sentence punctuation; text from a recogniser without punctuation comes back whole. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.?!…])\s+|(?<=[—–])\s*|\s+(?=-{2})/u)
    .map((s) => s.trim())
    .filter((s) => countWords(s) > 0);
}

const WH_STATEMENT = /^(what|how|why) (i|we|you|they|it)( \w+){1,4} (is|was|are)\b/;

/** Classifies one clause as a question (and which kind), or null when it is a statement. */
export function classifyQuestion(sentence: string): QuestionKind | null {
  const marked = /\?\s*$/.test(sentence.trim());
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

const FILLER_PATTERNS: RegExp[] = [
  /\b(um+|uh+|uhm+|umm+|erm+|er|ah+|hmm+|mm+)\b/g,
  /\b(basically|literally)\b/g,
  /(^|[^a-z] )i mean\b/g,
];

/** Counts filler words; "like" counts only when commas mark it as a filler (", like,"). */
export function countFillers(text: string): number {
  const lower = text.toLowerCase();
  let n = (lower.match(/,\s*like\s*,/g) ?? []).length;
  // "you know" is a filler when set off by punctuation, or (without punctuation) when it
  // neither follows a question word nor takes an object.
  for (const m of lower.matchAll(/(\b[a-z']+\s+)?\byou know\b([\s,.!?]*)([a-z']*)/g)) {
    if (/^(do|did|if|as|would|won'?t|don'?t|didn'?t|now|what)\s+$/.test(m[1] ?? '')) continue;
    if (/[,.!?]/.test(m[2]) || !m[3]) n++;
    else if (
      !/^(what|how|why|when|where|who|that|if|about|the|a|it|him|her|them|my|your|our|this|those)$/.test(m[3])
    )
      n++;
  }
  const norm = normalizeText(text);
  for (const re of FILLER_PATTERNS) n += (norm.match(re) ?? []).length;
  return n;
}

/** Phrases that pressure the buyer (made-up deadlines, fear of missing out, "trust me"). */
const PRESSURE_PATTERNS: RegExp[] = (
  [
    /\b(only|just) (good|valid|available|works?) (for )?(today|tonight|right now|this evening)\b/,
    /\b(price|offer|deal|discount|promotion|special)( is| s)? (only )?(good|valid) (until|till|through) (midnight|tonight|today)\b/,
    /\b(today|tonight) only\b/,
    /\bonly (if we do it |if you sign )?(today|tonight)\b/,
    /\bsign(ed|ature)? (it |this |the paperwork |up )?(today|tonight|right now|before i leave)\b/,
    /\b(paperwork|signature) (done |signed )?(today|tonight)\b/,
    /\b(price|offer|deal|discount|that) (goes away|expires|disappears|is gone|goes back up|goes back to)\b/,
    /\bafter (midnight|tonight|today)\b/,
    /\bmiss out\b/,
    /\blast chance\b/,
    /\blimited time\b/,
    /\bwont last\b/,
    /\bact (now|fast|quickly)\b/,
    /\btrust me\b/,
    /\b(neighbors?|neighbours?|everyone|everybody)( on your street)? (already )?(locked|signed|jumped|grabbed|got in)\b/,
    /\bif i (walk|leave) out (that|the|this) door\b/,
    /\b(before|until) (it s|its|the price is) too late\b/,
    /\byou d be (crazy|foolish|silly) (not )?to\b/,
    /\bnow or never\b/,
  ] as RegExp[]
).map(looseContractions);

/** The pressure phrases found in the text (normalized), in order. */
export function findPressurePhrases(text: string): string[] {
  const norm = normalizeText(text);
  const found: string[] = [];
  for (const re of PRESSURE_PATTERNS) {
    const m = norm.match(re);
    if (m) found.push(m[0]);
  }
  return found;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  words: number;
  endMs: number;
  windowMs: number;
}

/** Builds speaker turns with their time windows; call start is inferred from durationSec when known. */
function buildTurns(entries: TranscriptEntry[], durationSec?: number): { turns: Turn[]; timed: boolean } {
  const finals = entries.filter((e) => isFinal(e) && countWords(e.transcript) > 0);
  if (!finals.length) return { turns: [], timed: false };
  const ends = finals.map((e) => e.timestamp);
  const increasing = ends.every((t, i) => i === 0 || t >= ends[i - 1]);
  const span = ends[ends.length - 1] - ends[0];
  const timed = increasing && span > 0;
  // The first utterance's window: from the call start when the duration says where that is,
  // else its own words at a conversational 150 words per minute.
  const firstWords = countWords(finals[0].transcript);
  let firstWindow = (firstWords / 150) * 60_000;
  if (timed && durationSec && durationSec * 1000 > span) {
    firstWindow = Math.min(durationSec * 1000 - span, Math.max(firstWindow, 1000) * 3);
  }
  const turns = finals.map((e, i) => ({
    role: e.role,
    text: e.transcript,
    words: countWords(e.transcript),
    endMs: e.timestamp,
    windowMs: !timed ? 0 : i === 0 ? firstWindow : Math.max(0, e.timestamp - finals[i - 1].timestamp),
  }));
  return { turns, timed };
}

/** Computes every metric; pure and deterministic. */
export function conversationMetrics(
  entries: TranscriptEntry[],
  opts: { durationSec?: number } = {},
): ConversationMetrics {
  const { turns, timed } = buildTurns(entries, opts.durationSec);
  const rep = turns.filter((t) => t.role === 'user');
  const owner = turns.filter((t) => t.role === 'assistant');
  const repWords = rep.reduce((n, t) => n + t.words, 0);
  const homeownerWords = owner.reduce((n, t) => n + t.words, 0);
  const totalWords = repWords + homeownerWords;

  const totalWindowMs = turns.reduce((n, t) => n + t.windowMs, 0);
  const repWindowMs = rep.reduce((n, t) => n + t.windowMs, 0);
  const spokenSec = timed ? totalWindowMs / 1000 : null;
  const durationSec =
    opts.durationSec && opts.durationSec > 0
      ? opts.durationSec
      : spokenSec !== null
        ? Math.round(spokenSec)
        : null;
  const minutes = durationSec ? durationSec / 60 : null;

  // Longest monologue: consecutive rep entries are one monologue split by the recogniser.
  let longestWords = 0;
  let longestMs = 0;
  let runWords = 0;
  let runMs = 0;
  for (const t of turns) {
    if (t.role === 'user') {
      runWords += t.words;
      runMs += t.windowMs;
      if (runWords > longestWords) {
        longestWords = runWords;
        longestMs = runMs;
      }
    } else {
      runWords = 0;
      runMs = 0;
    }
  }

  const questions = { total: 0, open: 0, closed: 0 };
  let fillerWords = 0;
  const pressurePhrases: string[] = [];
  for (const t of rep) {
    for (const q of findQuestions(t.text)) {
      questions.total++;
      questions[q.kind]++;
    }
    fillerWords += countFillers(t.text);
    pressurePhrases.push(...findPressurePhrases(t.text));
  }

  let switches = 0;
  for (let i = 1; i < turns.length; i++) if (turns[i].role !== turns[i - 1].role) switches++;

  return {
    version: 1,
    durationSec,
    repWords,
    homeownerWords,
    repTurns: rep.length,
    homeownerTurns: owner.length,
    talkRatioWordsPercent: totalWords ? Math.round((repWords / totalWords) * 100) : 0,
    talkRatioTimePercent: timed && totalWindowMs > 0 ? Math.round((repWindowMs / totalWindowMs) * 100) : null,
    longestMonologueWords: longestWords,
    longestMonologueSec: timed ? round1(longestMs / 1000) : null,
    questions,
    questionsPerMinute: minutes ? round1(questions.total / minutes) : null,
    interactivityPerMinute: minutes ? round1(switches / minutes) : null,
    patienceSec: timed ? estimatePatience(turns) : null,
    fillerWords,
    fillersPerMinute: minutes ? round1(fillerWords / minutes) : null,
    paceWpm: plausiblePace(timed && repWindowMs > 0 ? Math.round(repWords / (repWindowMs / 60_000)) : null),
    pressurePhrases,
  };
}

/**
 * Nobody speaks faster than about 400 words a minute; a faster "pace" means the turns' times
 * do not measure speech (typed turns arrive all at once), so there is no pace to show.
 */
export const MAX_PLAUSIBLE_WPM = 400;
function plausiblePace(wpm: number | null): number | null {
  return wpm !== null && wpm > MAX_PLAUSIBLE_WPM ? null : wpm;
}

/**
 * The pause before the rep answers. A turn's window is its pause plus its speech; the rep's
 * speaking rate is taken from their fastest long turn (the one with the least pause in it),
 * so each answer's pause is its window minus its words at that rate.
 */
function estimatePatience(turns: Turn[]): number | null {
  const rep = turns.filter((t) => t.role === 'user' && t.windowMs > 0);
  const long = rep.filter((t) => t.words >= 8);
  const rates = (long.length ? long : rep).map((t) => t.words / t.windowMs);
  if (!rates.length) return null;
  // Cap at a brisk 220 wpm so one mistimed entry cannot imply an impossible rate.
  const rate = Math.min(Math.max(...rates), 220 / 60_000);
  const pauses: number[] = [];
  for (let i = 1; i < turns.length; i++) {
    const t = turns[i];
    if (t.role !== 'user' || turns[i - 1].role !== 'assistant' || t.windowMs <= 0) continue;
    pauses.push(Math.max(0, t.windowMs - t.words / rate));
  }
  if (!pauses.length) return null;
  return round1(pauses.reduce((a, b) => a + b, 0) / pauses.length / 1000);
}

export interface MetricExplanation {
  key: string;
  label: string;
  value: string;
  /** What the number means and its healthy range. */
  help: string;
  /** Whether the value sits in the healthy range (null when not measurable). */
  healthy: boolean | null;
}

const fmt = (n: number | null, unit = '') => (n === null ? 'n/a' : `${n}${unit}`);

/**
 * Rows a typed call leaves out: they time speech (pace, pauses, talk time and monologues by the
 * clock, fillers and questions per minute), and a typed turn's time is typing and reading.
 */
export const TIMED_METRICS: ReadonlySet<string> = new Set([
  'questionRate',
  'interactivity',
  'patience',
  'fillers',
  'pace',
]);

/**
 * Display rows for the coaching card, the PDF and emails, so every surface explains the
 * numbers the same way. `typed`: the rep typed their turns, so only what words measure is shown
 * (talk share and monologues in words, questions, pressure).
 */
export function describeMetrics(m: ConversationMetrics, opts: { typed?: boolean } = {}): MetricExplanation[] {
  if (opts.typed) {
    const words: ConversationMetrics = { ...m, talkRatioTimePercent: null, longestMonologueSec: null };
    return describeMetrics(words).filter((row) => !TIMED_METRICS.has(row.key));
  }
  const within = (v: number | null, lo: number, hi: number) => (v === null ? null : v >= lo && v <= hi);
  return [
    {
      key: 'talkRatio',
      label: 'Your talk time',
      value:
        m.talkRatioTimePercent === null
          ? `${m.talkRatioWordsPercent}% of words`
          : `${m.talkRatioWordsPercent}% of words, ${m.talkRatioTimePercent}% of time`,
      help: 'Your share of the conversation. Published field data puts top reps near 43% talk time; aim for 35-50% so the homeowner explains their needs.',
      healthy: within(m.talkRatioTimePercent ?? m.talkRatioWordsPercent, 30, 55),
    },
    {
      key: 'longestMonologue',
      label: 'Longest monologue',
      value:
        m.longestMonologueSec === null
          ? `${m.longestMonologueWords} words`
          : `${m.longestMonologueWords} words (${Math.round(m.longestMonologueSec)} s)`,
      help: 'Your longest stretch without the homeowner speaking. Keep it under about 60 seconds (roughly 150 words); check in with a question before going on.',
      healthy: m.longestMonologueSec === null ? m.longestMonologueWords <= 150 : m.longestMonologueSec <= 75,
    },
    {
      key: 'questions',
      label: 'Questions asked',
      value: `${m.questions.total} (${m.questions.open} open, ${m.questions.closed} closed)`,
      help: 'Open questions (what, how, why, tell me) get the homeowner talking about needs; closed ones confirm facts. Aim for more open than closed, and 8 or more questions in a full visit.',
      healthy: m.questions.total === 0 ? false : m.questions.open >= m.questions.closed / 2,
    },
    {
      key: 'questionRate',
      label: 'Question rate',
      value: fmt(m.questionsPerMinute, ' per min'),
      help: 'Questions per minute of the call. Around 1.5 to 3 per minute keeps a conversation two-way without feeling like an interrogation.',
      healthy: within(m.questionsPerMinute, 1, 4),
    },
    {
      key: 'interactivity',
      label: 'Interactivity',
      value: fmt(m.interactivityPerMinute, ' switches per min'),
      help: 'How often the speaker changes per minute. Higher means a real back-and-forth; aim for 4 or more per minute in a role-play.',
      healthy: m.interactivityPerMinute === null ? null : m.interactivityPerMinute >= 4,
    },
    {
      key: 'patience',
      label: 'Patience',
      value: fmt(m.patienceSec, ' s'),
      help: 'Estimated pause before you answer the homeowner. A short beat (about 0.5 to 2 seconds) shows you listened to the end instead of waiting to talk.',
      healthy: within(m.patienceSec, 0.5, 3),
    },
    {
      key: 'fillers',
      label: 'Filler words',
      value:
        m.fillersPerMinute === null
          ? String(m.fillerWords)
          : `${m.fillerWords} (${m.fillersPerMinute} per min)`,
      help: 'Um, uh, you know, basically. A few are natural; more than about 3 per minute makes you sound unsure. Pause silently instead.',
      healthy: m.fillersPerMinute === null ? m.fillerWords <= 5 : m.fillersPerMinute <= 3,
    },
    {
      key: 'pace',
      label: 'Speaking pace',
      value: fmt(m.paceWpm, ' words per min'),
      help: 'Your words per minute of your own turns. About 120 to 170 is easy to follow; faster sounds rushed, slower can drag.',
      healthy: within(m.paceWpm, 110, 180),
    },
    {
      key: 'pressure',
      label: 'Pressure phrases',
      value: m.pressurePhrases.length
        ? `${m.pressurePhrases.length}: ${m.pressurePhrases.slice(0, 3).join('; ')}`
        : 'none',
      help: 'Made-up deadlines, fear of missing out or "trust me". Healthy is zero: pressure erodes trust and invites cancellations.',
      healthy: m.pressurePhrases.length === 0,
    },
  ];
}

/** Narrows an unknown API value to metrics (older sessions may hold none). */
export function isConversationMetrics(value: unknown): value is ConversationMetrics {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { version?: unknown }).version === 1 &&
    typeof (value as { talkRatioWordsPercent?: unknown }).talkRatioWordsPercent === 'number'
  );
}
