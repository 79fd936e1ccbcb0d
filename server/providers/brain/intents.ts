import type { ObjectionKind, Topic } from './personas';

/**
 * What a rep's turn does, read from text that may come from a weak offline recogniser:
 * lowercase, no punctuation, misheard words. Matching is on word stems with a small edit
 * distance for longer words, and no signal depends on punctuation.
 */
export interface RepTurn {
  words: string[];
  isQuestion: boolean;
  /** An open question (what, how, why, tell me...) invites a fuller answer. */
  isOpenQuestion: boolean;
  greeting: boolean;
  topics: Topic[];
  pressure: boolean;
  empathy: boolean;
  proof: boolean;
  close: boolean;
  priceTalk: boolean;
  /** Answers an objection of this kind (value, flexibility, both decision makers...). */
  addresses: ObjectionKind[];
  pitch: boolean;
}

const QUESTION_STARTS = [
  'what',
  'how',
  'why',
  'when',
  'where',
  'who',
  'which',
  'do',
  'does',
  'did',
  'are',
  'is',
  'was',
  'can',
  'could',
  'would',
  'will',
  'have',
  'has',
  'tell',
  'may',
  'should',
];
const OPEN_STARTS = ['what', 'how', 'why', 'tell', 'describe', 'walk', 'talk'];

/** Keyword stems per topic; multi-word entries match as phrases. */
const TOPIC_WORDS: Record<Topic, string[]> = {
  home: [
    'how old',
    'old is',
    'built',
    'age of',
    'years old',
    'lived here',
    'live here',
    'been here',
    'moved in',
    'original',
  ],
  problem: [
    'problem',
    'issue',
    'trouble',
    'wrong',
    'concern',
    'bother',
    'leak',
    'draft',
    'broke',
    'broken',
    'noise',
    'going on',
    'working',
    'happen',
    'notice',
    'condition',
    'fix',
    'repair',
    'damage',
    'cold',
    'warm',
    'heat',
    'look like',
    'looking for',
    'what brought',
    'why now',
    'replace',
    'change',
  ],
  budget: [
    'budget',
    'spend',
    'afford',
    'invest',
    'money',
    'finance',
    'financing',
    'payment',
    'range',
    'set aside',
    'price range',
  ],
  timeline: [
    'timeline',
    'timeframe',
    'time frame',
    'how soon',
    'when do you',
    'when would',
    'when are',
    'by when',
    'deadline',
    'schedule',
    'hoping to',
    'plan to',
  ],
  decision: [
    'decide',
    'decision',
    'decision maker',
    'wife',
    'husband',
    'spouse',
    'partner',
    'anyone else',
    'who else',
    'involved',
    'sign off',
  ],
  quotes: [
    'quote',
    'quotes',
    'estimate',
    'other compan',
    'anyone else out',
    'competitor',
    'shopping around',
    'looked at',
    'talked to other',
    'bids',
    'comparing',
  ],
  priorities: [
    'important',
    'matter',
    'priority',
    'priorities',
    'looking for in',
    'ideal',
    'perfect',
    'goal',
    'hope',
    'want out of',
    'most about',
    'care about',
    'style',
    'colour',
    'color',
    'look',
  ],
};

const PRESSURE = [
  'today only',
  'only today',
  'right now',
  'sign today',
  'sign now',
  'sign right',
  'limited time',
  'expires',
  'won t last',
  'wont last',
  'must decide',
  'decide now',
  'decide today',
  'last chance',
  'only good today',
  'act now',
  'before it s gone',
  'price goes up',
  'going up tomorrow',
  'if you sign',
  'special deal today',
  'need an answer now',
  'need an answer today',
  'you have to',
  'you need to buy',
  'you d be crazy',
  'everybody is buying',
];

const EMPATHY = [
  'understand',
  'makes sense',
  'hear you',
  'sorry',
  'frustrating',
  'that must',
  'sounds like',
  'appreciate',
  'fair enough',
  'fair question',
  'good question',
  'no pressure',
  'take your time',
  'completely get',
  'totally get',
  'i get it',
  'thank you',
  'thanks',
];

const PROOF = [
  'license',
  'licence',
  'licensed',
  'insured',
  'insurance',
  'reference',
  'references',
  'review',
  'reviews',
  'certified',
  'bonded',
  'warranty',
  'guarantee',
  'years in business',
  'in business for',
  'better business',
  'testimonial',
  'credentials',
  'badge',
  'show you',
  'neighbors',
  'neighbours',
  'in writing',
];

const CLOSE = [
  'appointment',
  'schedule',
  'book',
  'come back',
  'come by',
  'set up a time',
  'set a time',
  'inspection',
  'measure',
  'free estimate',
  'consultation',
  'next step',
  'saturday',
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'tomorrow',
  'next week',
  'does that work',
  'would that work',
  'get started',
  'move forward',
  'sign up',
  'bring samples',
  'samples',
];

const PRICE = [
  'price',
  'cost',
  'dollars',
  'dollar',
  'thousand',
  'hundred',
  '$',
  'discount',
  'deal',
  'per month',
  'cheap',
  'expensive',
  'financ',
];

const GREETING = [
  'hello',
  'hi',
  'hey',
  'good morning',
  'good afternoon',
  'good evening',
  'my name',
  'i m with',
  'i am with',
  'name is',
  'nice to meet',
  'how are you',
];

const PITCH = [
  'we are the best',
  'number one',
  'best in',
  'top rated',
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
];

const ADDRESSES: Record<ObjectionKind, string[]> = {
  price: [
    'value',
    'financ',
    'monthly',
    'payment',
    'save',
    'savings',
    'warranty',
    'last',
    'lifetime',
    'pays for',
    'invest',
    'options',
    'in pieces',
    'phase',
  ],
  trust: PROOF,
  timing: [
    'no pressure',
    'take your time',
    'flexible',
    'whenever',
    'no obligation',
    'quick',
    'fast',
    'same week',
    'tomorrow',
    'no rush',
  ],
  spouse: [
    'both of you',
    'together',
    'when is',
    'when would',
    'be home',
    'with him',
    'with her',
    'both',
    'your wife',
    'your husband',
    'of course',
  ],
  competitor: [
    'difference',
    'different',
    'compare',
    'included',
    'include',
    'warranty',
    'what did they',
    'apples',
    'quality',
    'material',
    'install',
  ],
};

/** Lowercases, drops punctuation and joins contractions so "won't" and "wont" match alike. */
export function normalise(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’']/g, ' ')
    .replace(/\$/g, ' $ ')
    .replace(/[^a-z0-9$ ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/** One word matches a keyword word: same stem, or one edit apart for words of 6+ letters. */
function wordMatches(word: string, key: string): boolean {
  if (word === key) return true;
  if (key.length >= 4 && word.startsWith(key)) return true;
  if (key.length >= 6 && word.length >= 6 && editDistanceAtMostOne(word.slice(0, key.length + 1), key))
    return true;
  return false;
}

export function containsAny(words: string[], keys: string[]): boolean {
  for (const key of keys) {
    const parts = normalise(key);
    if (parts.length === 0) continue;
    for (let i = 0; i + parts.length <= words.length; i++) {
      let ok = true;
      for (let k = 0; k < parts.length; k++) {
        if (!wordMatches(words[i + k], parts[k])) {
          ok = false;
          break;
        }
      }
      if (ok) return true;
    }
  }
  return false;
}

export function analyseRepTurn(text: string): RepTurn {
  const words = normalise(text);
  const first = words[0] ?? '';
  // Recognisers drop the question mark; a question word opening any clause also counts.
  const clauseStarts = [
    first,
    ...words.filter((_w, i) => i > 0 && ['so', 'and', 'but', 'well', 'okay', 'ok'].includes(words[i - 1])),
  ];
  const isQuestion =
    text.includes('?') ||
    clauseStarts.some((w) => QUESTION_STARTS.includes(w)) ||
    containsAny(words, [
      'can you tell',
      'could you tell',
      'tell me',
      'i m curious',
      'i am curious',
      'wondering',
      'do you',
      'are you',
      'have you',
      'what s',
      'how s',
    ]);
  const isOpenQuestion =
    isQuestion &&
    (OPEN_STARTS.some((w) => words.includes(w)) || containsAny(words, ['tell me', 'walk me', 'talk me']));
  const topics = (Object.keys(TOPIC_WORDS) as Topic[]).filter((t) => containsAny(words, TOPIC_WORDS[t]));
  const pressure = containsAny(words, PRESSURE);
  return {
    words,
    isQuestion,
    isOpenQuestion,
    greeting: words.length <= 25 && containsAny(words.slice(0, 12), GREETING),
    topics,
    pressure,
    empathy: containsAny(words, EMPATHY),
    proof: containsAny(words, PROOF),
    close: containsAny(words, CLOSE),
    priceTalk: containsAny(words, PRICE),
    addresses: (Object.keys(ADDRESSES) as ObjectionKind[]).filter((k) => containsAny(words, ADDRESSES[k])),
    pitch: containsAny(words, PITCH),
  };
}
