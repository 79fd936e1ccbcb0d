import { containsAny, has, lemmatise, matching, normalise, parsePrice, parsePrices } from './text/match';
import * as L from './cues';
import { LIFE_SUBJECTS, TOPICS, type LifeSubject, type ObjectionKind, type Topic } from './types';

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
  /** How firmly the turn names its strongest topic: 2 or more is a strong cue, below that weak ones. */
  topicStrength: number;
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
  /** Asks about the homeowner's own life (kids, work, pets, free time, roots), not the home. */
  life: LifeSubject | null;
  /** Asks to look at something now: "mind if I take a look at the furnace?", "can you show me the deck?" */
  inspect: boolean;
  /** Asks how the homeowner came to call this company: "how'd you hear about us?", "why us?" */
  asksReferral: boolean;
  /** "Can I use your bathroom real quick?": a visitor's request, not a question about the job. */
  asksRestroom: boolean;
  /** "Call or email, which is better?": how they want to be reached. */
  asksContact: boolean;
  /**
   * Asks about the homeowner's insurance for the damage: a claim, the adjuster, the deductible,
   * what insurance covers ("has the adjuster been out?"). Not the rep's own insurance, which is proof.
   */
  claim: boolean;
  /**
   * Picks up what was just said rather than naming it: "tell me more about that", "where at?",
   * "what did you think of them?", "how old are they?".
   */
  refersBack: boolean;
  /** The reference is to a person or people ("they", "he", "his"), not a thing. */
  refersToPeople: boolean;
  /**
   * The words of the question itself, without a preface sentence ("That makes sense. Can I ask
   * what they quoted?"): what it points at.
   */
  asked: string[];
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
  'whens',
  'wheres',
  'whos',
  'wanna',
  'want',
]);
const CLAUSE_OPENERS = new Set([
  'ideally',
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
  // "I would be grateful for a sense of the figure you had in mind."
  'a sense of',
  'i d like to know',
  'i would like to know',
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

/** What the reader is told about the household: the names of the people who decide with the homeowner. */
export interface ReadContext {
  /** First names of the homeowner's spouse or partner: asking about one asks who decides. */
  spouseNames?: readonly string[];
}

/** "The family room" names a room, not the family. */
const ROOM_NAMED_FAMILY = ['family room', 'family rooms'];

function isSmallTalk(seqs: string[][], words: string[]): boolean {
  return (
    has(seqs, L.SMALL_TALK) ||
    /\b(how about (them|those|that)|is that your|are those your|where did you get|love your|like your|nice|cute|lovely|beautiful|gorgeous|amazing|adorable|cos(y|iest)|coz(y|iest)|is (that|this) (a|an|like a|an actual|some kind of) \w+|are you a \w+ person|does (somebody|someone|anybody|anyone) play|did you pick (it|that|them|those) out|smells (amazing|great|good|incredible|wonderful))\b/.test(
      words.join(' '),
    )
  );
}

/**
 * "Ray with Cornerstone Home Services. Is that a smoker on the patio?": every question in the
 * turn is small talk or names nothing, so the trade's words around it (a company's name, "the
 * windows") ask nothing about the job.
 */
function onlyChatAsked(text: string): boolean {
  const asked = text.match(/[^.!?]*\?/g);
  if (!asked) return false;
  let chat = false;
  for (const q of asked) {
    const w = normalise(q);
    const seqs = readings(w);
    // Any word of the trouble itself ("that stain", "the leak") makes it about the job.
    const scores = topicScores(seqs);
    if ([...scores.values()].some((v) => v >= 1.5) || has(seqs, DAMAGE_WORDS) || has(seqs, L.DOMAIN_WORDS))
      return false;
    if (isSmallTalk(seqs, w)) chat = true;
  }
  return chat;
}

/** The problem's weak cues that name damage ("a stain", "the crack"), not weather, work or change. */
const DAMAGE_WORDS = L.TOPIC_CUES.problem.weak.filter(
  (w) =>
    ![
      'cold',
      'chill',
      'freezing',
      'storm',
      'water',
      'wet',
      'work',
      'change',
      'concern',
      'noise',
      'fix',
      'repair',
      'replace',
    ].includes(w),
);

/** Every topic cue, registered once so a turn is matched against them in one pass. */
const TOPIC_KEYS: readonly string[] = TOPICS.flatMap((t) => [
  ...L.TOPIC_CUES[t].strong,
  ...L.TOPIC_CUES[t].weak,
]);

function topicScores(seqs: string[][], spouseNames: readonly string[] = []): Map<Topic, number> {
  const scores = new Map<Topic, number>();
  const found = matching(seqs, TOPIC_KEYS);
  for (const topic of TOPICS) {
    const cues = L.TOPIC_CUES[topic];
    let score = 0;
    for (const key of cues.strong) if (found.has(key)) score += 2;
    for (const key of cues.weak)
      if (found.has(key) && !(key === 'family' && has(seqs, ROOM_NAMED_FAMILY))) score += 0.75;
    if (topic === 'decision' && spouseNames.length > 0 && has(seqs, spouseNames)) score += 2;
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

/**
 * "What I'd suggest is...", "how we do it is...": a statement opened by a question word; so is an
 * exclamation ("what a lovely home!", "how nice").
 */
function opensStatement(first: string | undefined, second: string | undefined): boolean {
  if (first === 'what' && (second === 'a' || second === 'an')) return true;
  if (
    first === 'how' &&
    ['nice', 'lovely', 'cute', 'beautiful', 'great', 'cool', 'fun', 'neat'].includes(second ?? '')
  )
    return true;
  return ['what', 'how'].includes(first ?? '') && ['i', 'we'].includes(second ?? '');
}

const INVERTED_QUESTION =
  /\b(how|what|when|where|why|which|who)( (?!i\b|we\b)\w+){0,2} (are|is|s|do|does|did|would|will|can|could|was|were|should|has|have|had) (you|your|it|that|this|they|the|he|she|there)\b/;
/** "You mentioned the dog, is it scratches or accidents?": a question opening a clause after a comma. */
const CLAUSE_QUESTION =
  /,\s*(?:and |so |but |or )?((is|are|was|were|do|does|did|can|could|would|will|has|have|had)\s+(it|you|that|this|there|they|he|she|your|the)\b|(what|where|when|why|which)('s|s| is| are| did| do| does| was)\b)/i;

/**
 * A question asked the way people ask in speech, with "do you" or "are you" left out: "you got
 * kids?", "got any plans for the weekend?", "ever had it serviced?", "taking a trip this year?".
 * Not "got it", "you got a nice place" or "you have a lovely home".
 */
const ELLIPTICAL_QUESTION =
  /^((you|ya) )?(got|have) (any|anybody|anyone|kids|children|grandkids|pets|a dog|a cat|plans|time|a (minute|second|sec|moment))\b|^((you|ya) )?ever (had|been|thought|tried|considered|looked|used|done|seen)\b|^(you|ya)( guys| folks| two| all)? (been|ever) |^((are )?(you|ya) )?(taking|planning|going) (a|any|on|anywhere|away)\b|^((you|ya) )?got (like |kind of )?(a|an|any) (number|budget|figure|date|price|ballpark|idea|time ?frame|timeline)\b/;

/** The last sentence of a turn, as words, when it is an elliptical question (ELLIPTICAL_QUESTION). */
function ellipticalQuestion(text: string): boolean {
  const last = normalise(
    text
      .split(/[.!;:]+/)
      .filter((x) => x.trim())
      .pop() ?? '',
  );
  return last.length > 0 && last.length <= 10 && ELLIPTICAL_QUESTION.test(last.join(' '));
}

function detectQuestion(text: string, words: string[], lemmas: string[]): boolean {
  if (text.includes('?')) return true;
  // "so you called about the ac right or was it the furnace"
  if (/\b(right|yeah|correct) or (was|is|did|does|do|are|were) (it|that|they)\b/.test(words.join(' ')))
    return true;
  // Unpunctuated either-or: "i got two files here was it the hardwood or the tile you called about".
  if (
    words.length <= 25 &&
    /(?<!\b(is|s|was|be|that|what|which|can|could|will|would|should|might|must|we|i|you|they|to|ll|d|and|gonna) )\b(was|is|did|does|do|are|were) (it|that|you|they|this) (?!(does|do|is|was|will|can|has|have|s)\b)\w+( \w+){0,7} or\b/.test(
      words.join(' '),
    )
  )
    return true;
  // Unpunctuated: "ok and the floors whats wrong with em".
  if (/\bwhat ?s (wrong|going on|the (problem|issue|trouble|story|deal))\b/.test(words.join(' ')))
    return true;
  if (CLAUSE_QUESTION.test(text)) return true;
  const first = words[0] ?? '';
  if (opensStatement(first, words[1])) return false;
  if (QUESTION_STARTS.has(first) && first !== 'have' && first !== 'tell') return true;
  // "Tell me about it" asks; "tell you what" and "tell Bruno I'm sorry" do not.
  const tellsMe = (i: number) => words[i] !== 'tell' || ['me', 'us'].includes(words[i + 1] ?? '');
  if ((first === 'have' || (first === 'tell' && tellsMe(0))) && !has([words], L.GOODBYE)) return true;
  for (let i = 1; i < words.length; i++)
    if (
      CLAUSE_OPENERS.has(words[i - 1]) &&
      QUESTION_STARTS.has(words[i]) &&
      words[i] !== 'have' &&
      tellsMe(i) &&
      !opensStatement(words[i], words[i + 1])
    )
      return true;
  // A question after a preface: "yeah, safety first. how soon are you wanting it done?"
  for (const sentence of text.split(/[.!;:]+/).slice(1)) {
    const w = normalise(sentence);
    if (SENTENCE_QUESTION_STARTS.has(w[0] ?? '') && !opensStatement(w[0], w[1])) return true;
    // "Have you filed anything with insurance?": a question, unlike "have a good one".
    if (
      ['have', 'has', 'had'].includes(w[0] ?? '') &&
      /^(you|they|he|she|it|anyone|anybody|the|your)$/.test(w[1] ?? '')
    )
      return true;
  }
  // Unpunctuated: a question word with its verb and subject inverted close behind it ("so on a
  // scale of one to ten how important is the noise", "and when were you hoping to start").
  if (INVERTED_QUESTION.test(words.join(' '))) return true;
  // "Thanks again" asks nothing again, nor does "call me if it acts up again": "again" asks
  // only with a question word.
  const asksWord = /\b(what|when|how|who|where|which|remind)\b/.test(words.join(' '));
  const thanked = (w: string[]) =>
    w
      .join(' ')
      .replace(/\b(thanks|thank you) again\b/g, 'thanks')
      .replace(asksWord ? /^\b$/ : /\bagain\b/g, '')
      .split(' ');
  if (has([thanked(words), thanked(lemmas)], EMBEDDED_QUESTION)) return true;
  if (ellipticalQuestion(text)) return true;
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
    /\bi (should|better|d better|need to|gotta|got to|have to|must|ll|will|m gonna|am going to) (get going|be going|go|head out|head off|run|take off|leave|let you go|get out of)(?! (copies|a|an|the|my|our|some|you (a|the|some|my|our|copies|these|those)|it|them|these|those|this|that|check|take|look|grab|get|measure|see|ahead|over|up|down|through)\b)/.test(
      text,
    ) ||
    /\b(thanks|thank you|appreciate) (so much |again )?(for )?(your|the) time( (today|tonight|this (morning|afternoon|evening))| again)?$/.test(
      text,
    ) ||
    /\benjoy (the rest of |what s left of )?(your|the) (day|evening|night|afternoon|weekend)\b/.test(text) ||
    // "It was great chatting, I'll be in touch": leaving with a promise to be in touch.
    /\b(i|we) (ll|will) be in touch( \w+)?$/.test(text) ||
    // "Thanks, Dave, I'll email that over tonight", "I'll shoot you a number this week": thanks or
    // a price to follow, and a promise to be in touch, closing the turn.
    (/\b(i|we) (ll|will|m gonna|re gonna|m going to|re going to|shall)( \w+){0,6} (call|email|text|ring|send|shoot|drop|mail|get back to|be in touch|follow up|reach out|write|deliver)\b/.test(
      text,
    ) &&
      (/\b(thanks|thank you|appreciate (it|you|that))\b/.test(text) ||
        // "I'll shoot you a number this week", "I'll email you a summary tonight": the price or the
        // write-up follows later, or a day is named for it, so the visit is over.
        /\b(number|numbers|quote|price|estimate|proposal|bid|summary|report|samples|write up|writing)\b/.test(
          text,
        ) ||
        /\b(tonight|tomorrow|this week|by (monday|tuesday|wednesday|thursday|friday|saturday|sunday|the weekend)|(on )?(monday|tuesday|wednesday|thursday|friday))\b/.test(
          text,
        )) &&
      words.length <= 40) ||
    // "Call me if it starts acting up again", "you've got my number": leaving the door open.
    /\b((call|text|ring) me if|give (me|us) a (call|shout|ring) if|you (ve )?(got|have) my (number|card))\b/.test(
      text,
    ) ||
    /\b(see|let|show) myself out\b/.test(text) ||
    // "Give Susan my best", "say hi to the kids for me": regards sent on the way out.
    /\b(give|send) (\w+ )?my (best|regards|love)\b|\bsay (hi|hello) to \w+( \w+)? for me\b/.test(text) ||
    // "Later.", "Peace out.": a short turn that is only a farewell.
    /^((ok|okay|alright|right|cool) )?(later|laters|peace|peace out|ciao|cheerio|ta ta)$/.test(text) ||
    /\b(thanks|thank you) (so much |again )?for (the|your) (coffee|tea|hospitality|tour|patience|lemonade|cuppa)\b/.test(
      text,
    ) ||
    /\b(it was|it s been|it has been|was) (great|nice|good|lovely|a pleasure) (chatting|talking|meeting)\b/.test(
      text,
    ) ||
    /\b(it was|it s been|it has been) (a )?(genuine |real |true )?pleasure\b/.test(text) ||
    // "...Good evening to you both": at the end of a turn, a good evening takes leave.
    /\bgood (evening|night|day) to you( both| all| two)?$/.test(text) ||
    // "I'll write it up and call you Friday. Thanks, Tom": a promise to be in touch, then thanks.
    /\b(i|we) (ll|will)\b[a-z ]{0,40}\b(call|email|text|ring|get back|be in touch|follow up|reach out|send)\b[a-z ]*\b(thanks|thank you)( so much| again| a lot)?( \w+)?$/.test(
      text,
    )
  );
}

function detectPressure(seqs: string[][], words: string[]): boolean {
  const joined = words.join(' ');
  // "What made you decide now's the time?" asks why now; it pushes nothing.
  if (
    /\b(what|who) (made|makes|got|prompted|pushed) (you|ya)\b|\bwhy now\b/.test(joined) &&
    !has(seqs, L.PRESSURE_ALONE)
  )
    return false;
  if (
    /\b(no need to|don t have to|do not have to|don t need to|do not need to|doesn t have to|not asking you to|no pressure|no rush|never ask|not here to (get|make|have|sell|push)|not (trying|going) to (sell|push|pressure|get you to sign))\b/.test(
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
  // Pressure by fear, scarcity or a vanishing deal: "I wouldn't let your kids sleep another night
  // with that" (a plain warning about the risk is not pressure), "the rebate's gone at midnight", "exactly one opening, after that it's January",
  // "you won't find this number anywhere", "I already knocked my commission off".
  if (
    /\bi (wouldn t|would not|would never|d never|wouldn t even) (let|have|keep|put)\b[a-z ]{0,30}\b(kids|children|family|wife|husband|baby|babies|grandkids|daughter|son)\b/.test(
      joined,
    ) ||
    /\b(rebate|deal|price|pricing|offer|discount|special|promo|promotion|number|savings|incentive)s?\b[a-z ]{0,40}\b(gone|over|ends?|expires?|disappears?|goes away|off the table|dead|no good)\b[a-z ]{0,12}\b(at midnight|tonight|today|tomorrow|end of (the )?(day|week|month)|when i (leave|walk out|go)|once i (leave|walk out|go)|after today|this weekend|(on )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/.test(
      joined,
    ) ||
    /\b(only|exactly|just) (got |have |ve got |has )?(one|a single|1) (opening|slot|spot|install date|installation date|crew|day)\b[a-z ]{0,60}\b(after that|booked (solid|up)|won t be (free|available))\b/.test(
      joined,
    ) ||
    // "The folks next door and the couple across the street both signed with us this week."
    /\b(next door|across the street|down the street|on (your|the) street|neighbou?rs?)\b[a-z ]{0,40}\b(signed|signed up|went ahead|went with us)\b/.test(
      joined,
    ) ||
    // "That's only if we write it up today."
    /\bonly (if|when) (we|you) (\w+ ){0,4}(today|tonight|right now|before i (leave|go))\b/.test(joined) ||
    // A cut tied to tonight, a slot someone else wants, an offer gone tomorrow: "if I fill his slot
    // tonight I can knock it down", "a couple three streets over wants that slot", "that slot won't
    // be there tomorrow".
    /\b(if|when) (i|we|you) (\w+ ){0,5}(tonight|today|right now|by tomorrow)\b[a-z ]{0,40}\b(knock|drop|take|bring|get|cut)( it| that)? (down|off)\b/.test(
      joined,
    ) ||
    /\b(someone|somebody|a couple|a family|people|another (customer|family|client|homeowner)|neighbou?rs?)\b[a-z ]{0,40}\b(wants?|waiting (for|on)|after|asking for) (that|the|this|my|his) (slot|spot|opening|date|crew|install\w*)\b/.test(
      joined,
    ) ||
    /\b(slot|spot|opening|deal|price|offer|discount|number|crew|date)\b[a-z ]{0,20}\b(won t|will not|wont) be (there|here|available|around)\b/.test(
      joined,
    ) ||
    /\binitials? (right )?here\b/.test(joined) ||
    // Guilt: "I came out on my day off for you", "you'd be the one explaining to your family".
    /\b(on my day off|meet me halfway|be the one explaining|explaining to your (family|wife|husband|kids))\b/.test(
      joined,
    ) ||
    /\bwon t find (this|that|a|the) (number|price|deal|offer|rate)\b[a-z ]{0,20}\b(anywhere|anyplace)\b/.test(
      joined,
    ) ||
    /\b(knock(ed)?|took|taken|cut|giving up|give up) (off )?my (own )?commission\b|\bmy commission (off|out)\b|\bout of my own pocket\b/.test(
      joined,
    )
  )
    return true;
  // Refusing to leave without a signature: "I'm not leaving till we get this signed".
  if (
    /\b(not|won t|wont|never) (be )?(leave|leaving|going anywhere|go anywhere|walk out|walking out)\b[a-z ]{0,15}\b(until|till|til|unless|without)\b/.test(
      joined,
    )
  )
    return true;
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
      'gut (reaction|feeling|check)',
      'what s (going|goin) through your (head|mind)',
      'how (does|did|would|s) (that|this|it)( \\w+)? (land|sit)',
      'too (high|much|steep)( \\w+)?,? (about|just) right',
      'about right or',
      'where (are|re|r) (you|ya) (landing|leaning)',
      'where (do|d) (you|ya) (land|lean)',
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
      '(stop|stops|stopping) (you|ya)( guys)? (from )?(going|doing|signing|moving)',
      'hesita(nt|nce|tion|te|ting)',
      'reluctan(t|ce)',
      'on the fence',
      'what (s|is|are|would be) (your|the) (biggest |main |number one |only )?(concern|worry|worries|hang ?up|reservation|sticking point|holdup|hold up|question mark|doubt)s?',
      'what (concerns|worries|bothers|scares) you',
      'what (s|is) (stopping|keeping|bothering|worrying|scaring) you',
      'what would (it take|you need|make you|need to happen|have to happen)',
      'what (s|is) on your mind',
      '(what ?s|what is|what s) the (hold ?up|holdup)',
      'anything (bothering|worrying|holding)',
      // Asked whether they have a worry at all: "is there anything you're worried about?",
      // "are you nervous about any of it?", "any concerns so far?"
      '(anything|something) (that )?(you re|youre|you are|you d be|you would be|you might be) (worried|concerned|nervous|unsure|uneasy|hesitant)',
      '(are|were) (you|ya) (at all |a bit |a little |kind of |kinda |still )?(worried|concerned|nervous|uneasy)',
      '(do|did) (you|ya) have any (concerns|worries|reservations|doubts|hesitations)',
      'any (concerns|worries|reservations|doubts)',
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

/** Which way the homeowner leans, asked outright: "which way are you leaning?" */
const ASKS_LEANING =
  /\b(which way (are|re|r) (you|ya) (lean|leaning|going)|(are|re) (you|ya) leaning|lean(ing)? (toward|towards)|what (s|is) your gut (say|saying|tell|telling))\b/;

const PRAISE = new Set('love like nice lovely beautiful gorgeous great cute pretty amazing'.split(' '));
const COMPLIMENTED = new Set('house home place porch yard garden kitchen floor floors'.split(' '));

/** Words that end a company's name in an introduction ("I'm Dan with Apex Roofing, we were..."). */
const NAME_STOP = new Set(
  'we i im you your thanks thank so here today just to about nice how what is are can could do did was were'.split(
    ' ',
  ),
);

/**
 * "I'm Carla with Northside Heating and Air": a company's name in an introduction says nothing
 * about the home ("Ridgeview Flooring" asks nothing about the floors). Up to four words after
 * "with" or "from" that follow a name are left out when reading topics.
 */
function withoutCompanyName(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    // "Love the house", "what a lovely home": a compliment, not a question about the home.
    if (COMPLIMENTED.has(words[i]) && words.slice(Math.max(0, i - 3), i).some((w) => PRAISE.has(w))) continue;
    out.push(words[i]);
    if (words[i] !== 'with' && words[i] !== 'from') continue;
    const before = words.slice(Math.max(0, i - 4), i).join(' ');
    if (!/\b(i m|im|i am|this is|name s|name is|names|we re|we are|here)( \w+){0,2}$/.test(before)) continue;
    let j = i + 1;
    while (j < words.length && j - i <= 4 && !NAME_STOP.has(words[j])) j++;
    i = j - 1;
  }
  return out;
}

/** The surface words, their lemmas, and the lemmas without reporting clauses and fillers. */
function readings(words: string[]): [string[], string[], string[]] {
  const lemmas = lemmatise(words);
  // "when did you say you wanted it" reads as "when you want it".
  const core = lemmas
    .join(' ')
    .replace(/\b(do|would|did) you (say|mention|think)\b|\byou (say|mention)\b/g, ' ')
    .replace(/\b(um|uh|like|actually|really|ideally|exactly|basically|just|again|kinda)\b/g, ' ')
    .replace(/\b(what|how|who|when|where|why) (s|be|is)\b/g, '$1')
    .split(/\s+/)
    .filter(Boolean);
  return [words, lemmas, core];
}

/**
 * Asking to look at something now: "mind if I take a look at the furnace?", "can I get up on the
 * roof?", "could you show me the worst window?", "mind if I measure a couple of these?".
 */
const INSPECT =
  /\b((can|could|may|mind if|do you mind if|would you mind if|would it be (ok|okay|alright|all right|fine) if|is it (ok|okay|alright|all right|fine) if|ok if|okay if|alright if) (i|we) (go |quickly |just |real quick |quick )?((take|took|have|had|get|got|grab|grabbed) a (quick |little |closer |proper )?(look|peek|gander)|look|see|check|peek|measure|inspect|get up|got up|go up|went up|climb|hop up|pop up|walk around|poke|grab|take some|get some|pull up)|(can|could|would) you (show|point) me|i d (like|love) to eyeball|let me eyeball|((would you|do you)? ?mind|ok|okay|alright) if (i|we) (\w+ ){0,8}(look|looked|peek|peeked|check|checked|see|measure|inspect|climb|climbed|walk|walked|pop|popped|go up|went up)|(might|may) (i|we) (have|take) a (quick |little |closer )?look|(do you want|want|would you like|should) (me|i) to (take a (quick )?look|look at|have a look|check|come see)|(mind if|ok if|okay if|alright if) (i|we)( \w+){1,6} (and )?(check|inspect|look at|take a look|have a look|see|peek at|eyeball|walk)( \w+)? (the|your|that|this|those|it|under|behind|inside|up)|(mind if|ok if|okay if|alright if|can|could|may) (i|we) (walk|walked|pull|pop|open|lift|climb|get the ladder)|show me (the|where|around|what|your)|(walk|walking|show|showing|take|taking) me (around|through (the|your) (house|home|rooms?|place|space|areas?|basement|attic|yard|kitchen|hallway|floors?))|give me a (quick )?tour|let me (take a (quick )?look|have a look|see|check|measure|get up|go up|peek)|i d (love|like) to (see|take a look|have a look|look|check|measure|get up)|where s (the|your) (\w+ )?(furnace|unit|attic|hatch|panel|thermostat|air handler))\b/;

/**
 * A visit described, not proposed: "I just wanted to come by and see what's going on", "thanks
 * for having us over".
 */
const DESCRIBED_VISIT =
  /\b(wanted|wanting|was hoping|were hoping|came|stopped|swung|dropped) (to )?(come |stop |swing |drop )?(by|out|over) (and|to) (see|check|look|say|introduce|talk|chat|meet)\b|\bfor having (me|us)\b/;

/** The spouse asked about as the subject: "what's your husband going to care about?" */
const SPOUSE_VERBS =
  '( s)? (\\w+ ){0,2}(go|going|gonna|will|would|want|wants|care|cares|think|thinks|say|says|feel|feels|like|likes|need|needs|ask|asks)\\b';
const spouseSubjects = new Map<string, RegExp>();
function spouseSubject(names: readonly string[]): RegExp {
  const key = names.join('|').toLowerCase();
  let re = spouseSubjects.get(key);
  if (!re) {
    const who = ['your (husband|wife|spouse|partner|other half)', ...names.map((n) => n.toLowerCase())].join(
      '|',
    );
    re = new RegExp(`\\b(${who})${SPOUSE_VERBS}`);
    spouseSubjects.set(key, re);
  }
  return re;
}

/** The floor, roof or windows they have now ("the current carpet"), not the one they want. */
const CURRENT_THING =
  /\b(the|your|current|existing|old|present|that|had) (current |existing |old )?(carpet|hardwood|vinyl|laminate|tile|shingles?|floor|floors|flooring|windows?|furnace|roof)\b/;
const WANTS =
  /\b(want|wanting|like|looking for|look for|thinking|new|kind|type|prefer|pick|choose|go with|interested|picture|style|colou?r|replace it with|instead)\b/;

/**
 * A question whose subject points back at what was just said: "when did that start?", "how old
 * are they?", "what did he say?", "where is it worst?" (not "what time it is").
 */
const POINTS_BACK =
  /\b(when|where|why|how( long| old| bad| often| much| many| big| come)?|what( else)?) (did|does|do|is|was|has|have|are|were|s|d) (that|it|this|they|he|she|those|these|them)\b/;

/** The homeowner's own children or pets named as the subject: "how old are your kids?" */
const OWN_PEOPLE =
  /\b(your|ur|the) (kid s |kids |little )?(kids?|children|son|sons|daughters?|boys?|girls?|grandkids?|grandsons?|granddaughters?|dogs?|cats?|pup|puppy|pets?)\b/;

/** The marriage, or the spouse's own work: "how long have you two been married?", "what does he do?" */
const SPOUSE_LIFE =
  /\b(what (does|do) (your|ur) (husband|wife|spouse|partner) do|(your|ur) (husband|wife|spouse|partner) (work|works|do for|into|enjoy|enjoys|cook|cooks|like to|likes to)|what (does|do) (he|she) do for (a living|work)|(been|be|get|got) married|married (for|long)|how did (you|ya)( two| guys)? meet|anniversary|wedding)\b/;

/** The homeowner's insurance for the damage: the claim, the adjuster, the deductible, the cover. */
const CLAIM =
  /\b(adjusters?|adjustors?|deductibles?|claims?|insurance (company|companies|co|guy|guys|man|lady|people|folks|agent|adjuster|covering|cover|covers|pay|pays|paying|paid|take care|handle|handling|involved)|(your|ur|the|homeowners?|homeowner s) insurance|insurance (on|for) (it|this|that|the))\b/;
/** The rep's own insurance, shown as proof ("licensed and insured", "here's my insurance card"). */
const OWN_INSURANCE =
  /\b((my|our) insurance|(i m|im|we re|were|i am|we are) (fully |also )?(insured|bonded)|licensed and insured|proof of insurance|certificate of insurance|insurance (card|certificate))\b/;

/**
 * How they came to call this company: "how'd you hear about us?", "what made you pick us?", "why
 * call us instead of the big guys?". Not "what made you call us?", which asks what is wrong.
 */
const REFERRAL =
  /\b(how (did|d|do) (you|ya)( guys| folks)? (hear|find|learn|know) (about|of) (us|me|our|my)|how (did|d) (you|ya) (find|get) (us|me|our (name|number|info))|what (made|had|got) (you|ya) (pick|choose|contact|go with) (us|me)|why (did|d) (you|ya) (pick|choose|go with) (us|me)|(call|calling|ring|contact) (us|me) (instead|over|rather)|who (referred|sent|recommended) (you|ya)|where (did|d) (you|ya) (hear|find out) (about|of) (us|me))\b/;
/** Holiday plans, not the job's timeline: "any big plans this summer?" */
const LEISURE_PLANS =
  /\b((any|got|have|making) (big |fun |good |special )?plans (this|for the|over the|for this) (summer|weekend|holidays?|winter|spring|fall|break)|(going|heading|getting) (anywhere|away)|taking (a|any) (trip|vacation|holiday))\b/;

/** Where the homeowner is from. */
const FROM_WHERE =
  /\b((are|were) (you|ya)( guys| folks| two)? (from|originally from|born)|where (are|were|re) (you|ya)( guys| folks| two)? (from|originally)|(did|do) (you|ya) grow up)\b/;

/** A reaction that asks for more: "really?", "oh yeah?", "no way". */
/** A yes/no question whose subject is what was just described: "does it...", "is that...". */
const ASKS_ABOUT_IT =
  /^((and|so|ok|okay|oh|um|uh|right|alright|gotcha|got it|i see) )*((does|did|is|was|has|had|will|would|do|are|were|can) (it|that|this|they|those|these)\b|(is it |it s |it )?still (doing|happening|acting|like)\b)/;

const REACTION_QUESTION = /^(oh )?(really|yeah|yes|no way|wow|seriously|huh)$/;

/** "A typical July afternoon", "most evenings": a time described, not one proposed. */
const DESCRIBED_TIME =
  /\b(typical|usual|normal|average|every|most|those|these|summer|winter|hot|cold|rainy|sunny|lazy|january|february|march|april|may|june|july|august|september|october|november|december)( \w+)? (morning|afternoon|evening|night|day|weekend)s?\b/g;

/** What a rep turn is read into, stage by stage (see analyseRepTurn). */
interface Draft {
  text: string;
  spouseNames: readonly string[];
  words: string[];
  seqs: string[][];
  lemmas: string[];
  tailWords: string[];
  tailSeqs: string[][];
  joinedWords: string;
  isQuestion: boolean;
  isOpenQuestion: boolean;
  topicSeqs: string[][];
  scores: Map<Topic, number>;
  domain: boolean;
  smallTalk: boolean;
  dayOrTime: boolean;
  inspect: boolean;
  close: boolean;
  homeCues: boolean;
  plainQuestion: boolean;
  topics: Topic[];
  life: LifeSubject | null;
  checksBack: boolean;
  suggests: boolean;
  asksReferral: boolean;
  asksRestroom: boolean;
  asksContact: boolean;
  claim: boolean;
  chatAsked: boolean;
  refersBack: boolean;
}

/** The words, their readings and whether the turn asks something (and openly). */
function readFrame(
  text: string,
  ctx: ReadContext,
): Pick<
  Draft,
  | 'spouseNames'
  | 'words'
  | 'seqs'
  | 'lemmas'
  | 'tailWords'
  | 'tailSeqs'
  | 'isQuestion'
  | 'isOpenQuestion'
  | 'joinedWords'
> {
  const spouseNames = ctx.spouseNames ?? [];
  const allWords = normalise(text);
  // Long rambles: the question, if any, usually closes the turn.
  const words = allWords;
  const seqs = readings(allWords);
  const lemmas = seqs[1];
  const tailWords = words.length > 40 ? words.slice(-25) : words;
  const tailSeqs = words.length > 40 ? [tailWords, lemmas.slice(-25)] : seqs;
  // "Linda? Hi, I'm Marcus with Brightpane": a name checked at the door asks nothing.
  const asking = text.replace(/^\W*(\w+[,\s]+)?\w+\?\s*(?=\S)/, '');
  // A form read out ("Number four. Number of windows in scope."): a field named is a question.
  const readsForm = /^(number|item|question) (one|two|three|four|five|six|seven|eight|nine|ten|\d+)\b/.test(
    words.join(' '),
  );
  const isQuestion =
    readsForm || detectQuestion(words.length > 40 ? tailWords.join(' ') : asking, tailWords, tailSeqs[1]);
  const isOpenQuestion =
    isQuestion && (OPEN_STARTS.some((w) => tailWords.includes(w)) || has(tailSeqs, ['tell me', 'walk me']));

  return {
    spouseNames,
    words,
    seqs,
    lemmas,
    tailWords,
    tailSeqs,
    isQuestion,
    isOpenQuestion,
    joinedWords: words.join(' '),
  };
}

/** The topics' scores and whether the turn proposes a next step (a day, a booking) or asks to look. */
function readClose(text: string, d: ReturnType<typeof readFrame>) {
  const { spouseNames, words, seqs, tailSeqs, isQuestion } = d;
  // Topics and the trade's things are read without the company's name in an introduction.
  const named = withoutCompanyName(words);
  const topicSeqs = named.length === words.length ? seqs : readings(named);
  const topicTail = named.length === words.length ? tailSeqs : topicSeqs;
  const scores = topicScores(isQuestion ? topicTail : topicSeqs, spouseNames);
  const domain = has(topicSeqs, L.DOMAIN_WORDS);
  const smallTalk = isSmallTalk(seqs, words);
  // A visit is proposed by the rep ("can I come by", "let us come out"), not asked about
  // ("did anybody else come out?"); booking words propose by themselves.
  const joinedWords = words.join(' ');
  // "Good evening" greets; it names no time for a visit.
  const greetingTime = /^(good )?(morning|afternoon|evening)\b/.exec(joinedWords)?.[0].split(' ').length ?? 0;
  const afterGreeting = words.slice(greetingTime).join(' ');
  // "Ten am", "4 pm"; "I am" is no time.
  const clockTime =
    /\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)( \d\d)? (am|pm)\b/.test(
      afterGreeting,
    );
  const timeWords = normalise(afterGreeting.replace(DESCRIBED_TIME, ' '));
  const dayOrTime =
    clockTime ||
    (greetingTime > 0 || new RegExp(DESCRIBED_TIME.source).test(afterGreeting)
      ? has([timeWords], L.DAY_OR_TIME)
      : has(seqs, L.DAY_OR_TIME));
  // Asking to look at something now is no proposal of a visit; "come back Thursday to measure" is.
  const inspect =
    INSPECT.test(joinedWords) &&
    !dayOrTime &&
    !has(seqs, ['come back', 'come by', 'come out', 'stop by', 'swing by', 'drop by']);
  // A proposal can leave out who comes: "would Thursday evening work to come back?", a day or
  // time put to the homeowner as something that works, suits or is good for them.
  const proposesTime =
    dayOrTime &&
    isQuestion &&
    (has(seqs, L.CLOSE_ACTION) ||
      /\b(work|works|suit|suits|good|better|ok|okay|fine|free|available)\b/.test(afterGreeting));
  let close =
    proposesTime ||
    // "I can hold a Tuesday start", "we could pencil you in Thursday".
    (dayOrTime &&
      /\b(i|we) (can|could|ll|will) (hold|book|pencil|schedule|save|reserve|put you down)\b/.test(
        joinedWords,
      )) ||
    // "...or just leave samples for the weekend. Whichever feels better."
    /\bwhichever (feels|works|suits|sounds|is) (better|best|easier)\b/.test(joinedWords) ||
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
      ])) ||
    // "does tomorrow at four work to go over it", unpunctuated.
    (dayOrTime &&
      /\b(does|do|would|will|could|can|is) (\w+ ){1,4}(work|works|suit|suits|good|ok|okay|fine)\b/.test(
        joinedWords,
      ));
  if (close && ((!dayOrTime && DESCRIBED_VISIT.test(joinedWords)) || inspect)) close = false;
  // "Before I get the tape measure out, how's it been living with them?": a preface to a question.
  if (close && !dayOrTime && /^(so |okay |ok |and )?before i\b/.test(joinedWords) && isQuestion)
    close = false;
  // "No wait, that was my ten o'clock": a time in the rep's own day proposes nothing.
  if (
    close &&
    /\b(that|it|this) (was|s|is) my (\w+ ){0,2}(o clock|am|pm|appointment|call)\b/.test(joinedWords)
  )
    close = false;
  // "Before I measure anything, can I ask what made you call?": a written question after a
  // proposal-like preamble asks the question; the preamble proposes nothing. A check-back
  // ("I can come Thursday, does that work?") keeps the proposal.
  // The closing question, marked or not ("...pick up the phone? what's been bugging you about them").
  const lastQuestion =
    /([^.!?,;]*)\?\s*$/.exec(text)?.[1] ??
    (isQuestion && /[.?!]/.test(text) ? /([^.!?,;]*)$/.exec(text.trim())?.[1] : undefined);
  // A trailing phrase ("..., with your wife there?") is part of the proposal, not a question of its own.
  // "So what's on the list?": an opener before the question word leaves it a question of its own.
  const ownQuestion =
    lastQuestion !== undefined &&
    QUESTION_STARTS.has(normalise(lastQuestion).find((w) => !CLAUSE_OPENERS.has(w)) ?? '');
  if (close && lastQuestion && ownQuestion && lastQuestion.trim().split(/\s+/).length >= 3) {
    const q = normalise(lastQuestion);
    const qSeqs = [q, lemmatise(q)];
    const qTopics = [...topicScores(qSeqs, spouseNames).values()].some((v) => v >= 2);
    const qCloses = has(qSeqs, L.CLOSE_BOOKING) || has(qSeqs, L.CLOSE_ACTION) || has(qSeqs, L.DAY_OR_TIME);
    if (qTopics && !qCloses) close = false;
  }
  return { topicSeqs, scores, domain, smallTalk, dayOrTime, inspect, close };
}

type Staged = ReturnType<typeof readFrame> & ReturnType<typeof readClose> & { text: string };

/** The household topics asked about, and a part of the homeowner's own life. */
function readTopics(d: Staged) {
  const {
    text,
    spouseNames,
    words,
    seqs,
    joinedWords,
    isQuestion,
    close,
    smallTalk,
    domain,
    scores,
    inspect,
  } = d;
  // Words about what the trouble does ("scratches or accidents?") make a pet question a home one.
  const homeCues = [...scores.values()].some((v) => v >= 1.5) || has(seqs, DAMAGE_WORDS);
  // Weak cues alone make a topic only in a plain question (not a proposal), when nothing else competes.
  const plainQuestion = isQuestion && !close && !(smallTalk && !domain && !homeCues);
  let topics = [...scores.entries()]
    .filter(([, s]) => s >= 2)
    .sort((a, b) => b[1] - a[1])
    .map(([t]) => t);
  // What the spouse will want or think asks who decides, not what matters to the homeowner.
  if (topics.includes('decision') && spouseSubject(spouseNames).test(joinedWords)) topics = ['decision'];
  // "How does the dog do on the current carpet?": the floor they have is the problem, not a wish.
  if (topics.includes('product') && CURRENT_THING.test(joinedWords) && !WANTS.test(joinedWords)) {
    topics = topics.filter((t) => t !== 'product');
    if (topics.length === 0 && isQuestion) topics = ['problem'];
  }
  // "Any big plans this summer?" asks about their free time, not when the job is wanted.
  if (isQuestion && !domain && LEISURE_PLANS.test(joinedWords))
    topics = topics.filter((t) => t !== 'timeline');
  // A question about the homeowner's own life (not the home): kids, work, pets, free time, roots.
  const aboutThem =
    /\b(you|your|ya|yours)\b/.test(joinedWords) || words.length <= 5 || ellipticalQuestion(text);
  // "Are you from around here originally?" asks where they are from, not how old the windows are;
  // "how old are your kids?" about the kids, not the house; "what does your husband do?" about him.
  const fromHere = isQuestion && FROM_WHERE.test(joinedWords);
  // Not when it asks what they do to the home ("is it scratches from the dog?").
  const theirOwn =
    isQuestion && !domain && (topics.length > 0 || !homeCues) ? OWN_PEOPLE.exec(joinedWords) : null;
  const marriage = isQuestion && SPOUSE_LIFE.test(joinedWords);
  if (fromHere || marriage || (theirOwn && topics.every((x) => x === 'home' || x === 'timeline')))
    topics = [];
  const life: LifeSubject | null =
    isQuestion &&
    !close &&
    !domain &&
    !inspect &&
    topics.length === 0 &&
    (fromHere || marriage || theirOwn !== null || !homeCues) &&
    (aboutThem || theirOwn !== null)
      ? fromHere
        ? 'roots'
        : marriage
          ? 'spouse'
          : theirOwn
            ? /^(dog|dogs|cat|cats|pup|puppy|pets?)$/.test(theirOwn[3])
              ? 'pets'
              : 'kids'
            : /\bwhat (do|d) (you|ya) do( now| these days| exactly| yourself)?$/.test(joinedWords)
              ? 'work'
              : (LIFE_SUBJECTS.find((subject) => has(seqs, L.LIFE_CUES[subject])) ?? null)
      : null;
  return { homeCues, plainQuestion, topics, life };
}

/** The topics settled against what else the turn does: a check-back, a suggestion, a look, "who...". */
function settleTopics(d: Staged & ReturnType<typeof readTopics>) {
  const {
    words,
    seqs,
    joinedWords,
    tailWords,
    isQuestion,
    domain,
    scores,
    inspect,
    plainQuestion,
    life,
    close,
  } = d;
  let { topics } = d;
  // Weak cues alone: the best-supported topic (ties in TOPICS order, the problem first).
  if (topics.length === 0 && plainQuestion && !life && scores.size > 0)
    topics = [
      [...scores.entries()].sort((a, b) => b[1] - a[1] || TOPICS.indexOf(a[0]) - TOPICS.indexOf(b[0]))[0][0],
    ];
  // "Would that work better?", "how does that sound?": a check on what the rep just offered,
  // not a question about the household; only a strong cue still makes it one.
  const checksBack =
    isQuestion &&
    /\b((would|will|does|do|did|could|can|is) (that|this|it|those|these)( \w+)? (work|sound|help|fit|suit|make sense|be (ok|okay|fine|better|easier))|how (does|do|would|s) (that|this) (sound|work|look|feel)|make sense|sound (fair|good|ok|okay|right|reasonable|alright)|(would|will|does|could) (that|this|it) feel (\w+ )?(doable|manageable|better|easier|right|fair|affordable))\b/.test(
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
  // "Which one of those bugs you the most?": which matters most, not what is wrong.
  if (/\bwhich (one|ones|of (those|these|them|the \w+))\b.*\b(most|first|top)\b/.test(joinedWords))
    topics = ['priorities', ...topics.filter((t) => t !== 'priorities' && t !== 'problem')];
  // What someone who came out said or charged is about the other quotes ("what did he say was wrong?").
  if (topics.includes('quotes') && has(seqs, L.THEIR_WORD)) topics = ['quotes'];
  // Who came out before asks about other quotes, not who decides.
  if (topics.includes('quotes') && has(seqs, ['who else have you', 'have out', 'be out', 'come out']))
    topics = topics.filter((t) => t !== 'decision');
  // "A typical winter evening" describes the trouble; it asks no date.
  if (new RegExp(DESCRIBED_TIME.source).test(joinedWords) && (scores.get('timeline') ?? 0) < 1.5) {
    topics = topics.filter((t) => t !== 'timeline');
    if (topics.length === 0 && isQuestion && domain) topics = ['problem'];
  }
  // "If you had to choose, quieter or warmer?" asks what matters most, not who chooses.
  if (/\bif (you|ya) (had|have) to (pick|choose)\b/.test(joinedWords))
    topics = ['priorities', ...topics.filter((t) => t !== 'decision' && t !== 'priorities')];
  // "What made you decide now's the time?" asks why now, not who decides.
  if (/\bwhat (made|makes|got|prompted) (you|ya)( all| guys| two)? (decide|choose|pick)\b/.test(joinedWords))
    topics = topics.filter((t) => t !== 'decision');
  // The look answers what is asked in the same breath ("show me the window giving you trouble").
  if (inspect) topics = [];
  return { topics, checksBack, suggests };
}

/** Asks of their own kind: how they found us, the bathroom, how to reach them, the claim, chat, a follow-up. */
function readAsks(d: Staged & ReturnType<typeof readTopics> & ReturnType<typeof settleTopics>) {
  const { text, words, seqs, joinedWords, isQuestion, inspect, checksBack, suggests } = d;
  let { topics, close } = d;
  // How they found the company: a question of its own, not the problem or a proposal.
  const asksReferral = isQuestion && REFERRAL.test(joinedWords);
  const asksRestroom =
    /\b(use|borrow) (your|the|ur) (bathroom|restroom|washroom|toilet|loo|powder room|facilities)\b|\bwhere s (your|the) (bathroom|restroom|washroom|toilet|loo)\b/.test(
      joinedWords,
    );
  if (asksRestroom) topics = [];
  const asksContact =
    isQuestion &&
    /\b(call|phone|ring|text|email)\b[a-z ]{0,30}\b(or)\b[a-z ]{0,10}\b(call|phone|ring|text|email)\b/.test(
      joinedWords,
    ) &&
    /\b(which|what) (is|s|works|would be|do you)? ?(better|best|easier|prefer|like)\b|\bbest way to (reach|get hold of|contact)\b|\bor\W*$/.test(
      joinedWords,
    );
  if (asksReferral) {
    topics = [];
    close = false;
  }
  // Insurance for the damage is its own question, not the budget or another company's visit
  // ("has the insurance guy been out?", "what's your deductible?").
  const claim = CLAIM.test(joinedWords) && !OWN_INSURANCE.test(joinedWords);
  if (claim) topics = topics.filter((t) => t !== 'budget' && t !== 'quotes');
  const chatAsked = isQuestion && !close && !inspect && onlyChatAsked(text);
  if (chatAsked) topics = [];
  // A question that picks up what was just said: "tell me more about that", "where at?",
  // "what did you think of them?", "how old are they?".
  const refersBack =
    isQuestion &&
    !close &&
    ((has(seqs, L.FOLLOW_UP) && words.length <= 12) ||
      REACTION_QUESTION.test(joinedWords) ||
      /\bdid (you|ya) think (of|about) (them|it|that|those|him|her|what they|their)\b/.test(joinedWords) ||
      (words.length <= 10 && !ASKS_OPINION.test(joinedWords) && POINTS_BACK.test(joinedWords)) ||
      // "Does it happen all the time?", "is it worse when it's windy?", "only at night, or in the
      // day too?": a short question about what was just described, naming no topic of its own.
      (words.length <= 10 &&
        topics.length === 0 &&
        !checksBack &&
        !suggests &&
        !inspect &&
        !ASKS_OPINION.test(joinedWords) &&
        (ASKS_ABOUT_IT.test(joinedWords) || (words.length <= 8 && /\w or \w/.test(joinedWords)))));

  return { topics, close, asksReferral, asksRestroom, asksContact, claim, chatAsked, refersBack };
}

/** Leave-taking, rudeness, the language, prices, invitations, opinions asked and off-topic questions. */
function readSocial(d: Draft) {
  const {
    text,
    words,
    seqs,
    tailWords,
    tailSeqs,
    joinedWords,
    isQuestion,
    topics,
    life,
    inspect,
    claim,
    asksReferral,
    refersBack,
    domain,
    close,
    checksBack,
    smallTalk,
  } = d;
  const goodbye =
    (has(words.length <= 25 ? seqs : [tailWords.slice(-14), tailSeqs[1].slice(-14)], L.GOODBYE) ||
      farewellForm(tailWords)) &&
    (!isQuestion ||
      has([words], ['bye', 'goodbye', 'take care']) ||
      /^have an? /.test(words.join(' ')) ||
      // "Give me a shout if it comes back, okay?": only a tag is asked.
      /^[^?]*\b(ok|okay|alright|all right|yeah|right|deal)\?\s*$/i.test(text) ||
      // "...enjoy what's left of your evening": no question mark, and it ends on a farewell.
      (!text.includes('?') &&
        /\b(enjoy (the rest of |what s left of )?(your|the) (day|evening|night|afternoon|weekend)|(thanks|thank you) (so much |again )?for (the|your) (coffee|tea|hospitality|tour|patience|time|lemonade|cuppa))$/.test(
          words.join(' '),
        )));
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
  const asksOpinion =
    (isQuestion || tailWords.length <= 3) && (ASKS_OPINION.test(tailText) || ASKS_LEANING.test(tailText));
  const probesConcern = PROBES_CONCERN.test(tailText);
  // "Hi", "good morning", or a name and a company: "I'm Carla with Northside".
  // "Good afternoon, Frank? I'm Ellen from Harbor Roofing. I won't take much of your time...": the
  // greeting opens the turn, however long the rest of it runs.
  const greeting =
    words.length <= 40 &&
    (has([words.slice(0, 12)], L.GREETING) ||
      /^(good )?(morning|afternoon|evening)\b/.test(joinedWords) ||
      /\b(i m|im|i am|this is|my name s|my name is|names) \w+( \w+)? (with|from)\b/.test(joinedWords));
  const relevant =
    topics.length > 0 ||
    life !== null ||
    inspect ||
    claim ||
    asksReferral ||
    refersBack ||
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

  return { goodbye, rude, nonEnglish, prices, price, invite, asksOpinion, probesConcern, greeting, offTopic };
}

export function analyseRepTurn(text: string, ctx: ReadContext = {}): RepTurn {
  const frame = readFrame(text, ctx);
  const staged: Staged = { ...frame, ...readClose(text, frame), text };
  const topical = { ...staged, ...readTopics(staged) };
  const settled = { ...topical, ...settleTopics(topical) };
  const d: Draft = { ...settled, ...readAsks(settled) };
  const social = readSocial(d);
  const { words, lemmas, seqs, joinedWords, isQuestion, isOpenQuestion, topics, domain, scores, life } = d;
  const { inspect, claim, close, checksBack, asksReferral, smallTalk, chatAsked, asksRestroom, asksContact } =
    d;
  const { refersBack } = d;
  const { goodbye, invite, asksOpinion, probesConcern, prices, price, greeting, offTopic, nonEnglish, rude } =
    social;
  return {
    words,
    lemmas,
    isQuestion,
    isOpenQuestion,
    topics,
    domain,
    greeting,
    // "How does the dog do on hard floors?" asks about the home, whatever the dog.
    topicStrength: Math.max(0, ...topics.map((x) => scores.get(x) ?? 0)),
    smallTalk:
      chatAsked ||
      ((smallTalk || life !== null) && topics.length === 0 && !(isQuestion && domain) && !inspect),
    offTopic,
    nonEnglish,
    rude,
    pressure: detectPressure(seqs, words),
    empathy: has(seqs, L.EMPATHY),
    // "Thanks for sending those photos": the homeowner's pictures prove nothing about the rep.
    proof:
      has(seqs, L.PROOF) &&
      !/\b(thanks|thank you) for (sending|the|your|those)( \w+){0,3} (photos|pictures|pics)\b/.test(
        joinedWords,
      ),
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
    life,
    inspect,
    claim,
    asksReferral,
    asksRestroom,
    asksContact,
    refersBack,
    refersToPeople: /\b(they|them|their|he|she|him|her|his)\b/.test(joinedWords),
    asked: questionSentence(text, words),
  };
}

/** The last sentence that asks something, or the whole turn when none stands apart. */
function questionSentence(text: string, words: string[]): string[] {
  const parts = text.split(/(?<=[.!?;])\s+/).filter((p) => normalise(p).length > 0);
  if (parts.length < 2) return words;
  const asking = [...parts]
    .reverse()
    .find((p) => p.trim().endsWith('?') || QUESTION_STARTS.has(normalise(p)[0]));
  return asking ? normalise(asking) : words;
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
