import { looseContractions as loose, normalizeText } from '../text/normalise';

/**
 * A reply to something that asked for consent (a proposal, an offer, a request, a check): accepted,
 * refused, put off or answered with another day. Read by meaning: the reply's polarity, whether it
 * takes up the day or the action that was put to it, and whether it names another day instead.
 */
export type ConsentReply = 'agreement' | 'decline' | 'defer' | 'counter';

const DAY_WORDS = loose(
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|weds|thurs|thu|fri|sat|sun|tomorrow|tmrw|tmr|tonight|today|weekend|morning|afternoon|evening|night|noon|lunch|\d{1,2}(st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty \w+|thirtieth|thirty first)|\d{1,2}( ?(am|pm))?|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)( ?(thirty|fifteen|forty five|o clock|ish))?)\b/g,
);

/** Words that say yes, at the start of a reply or on their own. */
const YES = loose(
  /^((um|uh|oh|well|okay|ok|alright|hmm|yeah|ha|huh|so|then|fine|good|great|perfect|wow|aight|k) )*(yes|yeah|yea|yep|yup|ya|yah|sure|ok|okay|k|alright|all right|aight|fine|deal|absolutely|definitely|of course|certainly|sounds (good|great|fine|perfect|like a plan)|that (works|d work|would work|s fine|s good|s perfect|s great|s right|sounds good)|works( for (me|us))?|perfect|great|good|bet|cool|done|you got it|you got a deal|go (ahead|for it|on)|please( do)?|why not|i suppose|i guess( so)?|guess so|i d like that|id like that|i would like that|that d be (fine|great|good|nice|lovely|helpful)|thatd be|lets do (it|that)|let s do (it|that)|do it|book it|write it up|sign me up|count (me|us) in|i m in|im in|we re in|sold|yes ma am|yes sir|right|correct|exactly|that s right|thats right|true|fair (enough|point)|you re right|youre right|glad to|happy to|with pleasure|i should be glad)\b/,
);
/** A go-ahead given as an imperative: "write it up", "leave it", "mail it", "have him look", "get up there". */
const GO_AHEAD = loose(
  /^((um|uh|oh|well|okay|ok|alright|yeah|yes|sure|fine|then|just|so) )*(go (ahead|on|for it)|write (it|that|them) up|book (it|me|us|that)|put (me|us) down|leave (it|them|one|the \w+)|mail (it|them)|send (it|them|that|the \w+)( over)?|email (it|them|me)|text (it|me)|call (him|her|them|me)|have (him|her|them) (look|call|come)|get up there|come (on )?(in|back|by)|bring (it|them)|take (a look|your time|it)|show (me|us)|set it up|lock it in|pencil (me|us|it) in|schedule (it|me|us)|make it|sign (me|us) up)\b/,
);
/** Words that refuse, anywhere in the first clause. */
const NO = loose(
  /^((um|uh|oh|well|yeah|sorry|hmm|whoa|hold on|wait|honestly|look|listen|see|but|so|then|nah) )*(no|nope|nah|naw|no thanks|no thank you|not really|not today|not tonight|not now|not yet|not interested|i ll pass|ill pass|we ll pass|well pass|pass|hard pass|absolutely not|no way|not a chance|not happening|i don t think so|i dont think so|i d rather (not|you didn t|you didnt)|id rather (not|you didn t|you didnt)|rather not|i can t|i cant|we can t|we cant|can t do|cant do|i won t|i wont|thanks but no)\b/,
);
const REFUSES = loose(
  /\b(doesn t|doesnt|does not|won t|wont|will not|wouldn t|wouldnt|can t|cant|cannot|isn t going to|is not going to|not going to|not gonna) (work|do it|happen|be possible)\b|\b(is|s|are|re) (no good|bad|out|not good|not great|booked|taken|full|tough|rough|a no)\b|\b(not|never|nobody s|nobody is|no one s) (signing|booking|buying|filing|agreeing|deciding|doing (it|that|this|anything)|putting|paying)\b|\bdon t (put|book|sign|schedule|send|call|write|order) (me|us|it|anything|that)\b|\bdont (put|book|sign|schedule|send|call|write|order) (me|us|it|anything|that)\b|\b(never|didn t|didnt|did not) (said|say|agree|agreed|say yes|said yes) (yes|to that|to anything|anything|that)?\b|\bi said (probably|maybe|i d think|id think|i would think)\b|\b(hold (on|your horses)|slow down|whoa)\b.{0,40}\b(never|didn t|didnt|not)\b|\bget (out|off) (of )?(my|the) (house|porch|property|yard|lawn)\b|\b(i|we) (have|ve got|got) (a |an |my |our )?(\w+ )?(class|appointment|surgery|work|shift|doubles|church|game|meeting|practice|dialysis|plans|company)\b|\b(i m|im|i am|we re|were|we are) (busy|out|away|working|off|gone|at (work|the doctor|church))\b|\b(that s|thats|that is) not my problem\b|\bthey can have it\b|\bi don t get rushed\b|\bi dont get rushed\b/,
);
/** The day put to them is taken by something else: "Thursday's my hair appointment". */
const CLASH = loose(
  /\b(is|s|are|re) (my|our|her|his|the kids?|their) (\w+ ){0,2}(appointment|class|surgery|shift|church|game|meeting|practice|day off|dialysis|doctor|card night|bowling|league|bridge|work day|sleep in day|sleep-in day)\b|\b(i|we|she|he) (work|works|have|has|ve got|got) (\w+ ){0,2}(doubles|nights|late|class|church|practice|appointment|surgery)\b/,
);
const DEFERS = loose(
  /\b(think (it|about it|this|that|on it) over|think about it|sleep on it|let me think|need to think|(talk|speak) (to|with) (my|our|the) \w+|(have|need|got|gotta) to (talk|speak) (to|with) \w+|(talk|speak|check) (to|with) (him|her|them) (first|about it)?|talk it over|run it (by|past)|check with (my|our|the)|not promising( you)? anything|no promises|(can t|cant|cannot) promise|ask (my|our) \w+|get back to (you|ya)|leave it with me|(we ll|well|i ll|ill) (let you know|be in touch|call you|think)|not (ready|sure) yet|need (some )?time|(mull|chew) (it|on it|that) over|after i (talk|speak|think|check)|i ll (decide|see)|we ll see|well see)\b/,
);

/** Days, parts of the day and clock times named in a line (normalized words). */
function daysIn(norm: string): Set<string> {
  const days = norm.replace(/\b(mon|tues|wednes|thurs|fri|satur|sun)days\b/g, '$1day');
  return new Set(
    [...days.matchAll(DAY_WORDS)].map((m) => m[0].replace(/\s+/g, ' ')).filter((d) => !/^(one|\d)$/.test(d)),
  );
}

/**
 * How a reply answers what asked for consent. `proposedDay`: the line before named a day or time.
 * Null when the reply neither accepts nor refuses (an answer, a question back).
 */
export function consentReply(reply: string, previous: string): ConsentReply | null {
  const norm = normalizeText(reply);
  const prev = normalizeText(previous);
  const clauses = reply.split(/[.!?;]|,\s*(?=but\b)|\bbut\b/i).filter((c) => c.trim());
  const first = normalizeText(clauses[0] ?? reply);
  const opening = normalizeText(clauses.slice(0, 2).join(' '));
  const theirs = daysIn(prev);
  const mine = theirs.size ? daysIn(opening) : new Set<string>();
  const offeredChoice = /\bor\b/.test(prev) && theirs.size >= 2;
  const newDay = [...mine].some((d) => !theirs.has(d));
  const sameDay = [...mine].some((d) => theirs.has(d));
  const no = NO.test(first) || REFUSES.test(opening) || CLASH.test(opening);
  const yes = YES.test(first) || GO_AHEAD.test(first);
  if (DEFERS.test(norm) && !yes) return 'defer';
  if (no) return newDay && !sameDay ? 'counter' : 'decline';
  if (sameDay && !newDay) return 'agreement';
  if (sameDay || newDay)
    return offeredChoice && sameDay ? 'agreement' : yes && sameDay ? 'agreement' : 'counter';
  return yes ? 'agreement' : null;
}

/** Whether a line asks the other person to consent to something: a step, an offer, a request. */
export const ASKS_CONSENT = loose(
  /\b(can you|could you|will you|would you|can ya|could ya|you got a card|want me to|do you want me to|would you like (me to|to)|should i|shall i|shall we|can i|could i|may i|mind if|ok if|okay if|alright if|is it (ok|okay|alright|all right) if|would it (help|be (ok|okay|alright|all right))|how about|what about|how does|how s|does (that|this|it) (work|sound)|would (that|this|it) (work|be)|work for you|works for you|sound good|let s|lets|ready to|can we|could we|i can (come|be|have|get|do|put|book|swing|stop)|i could (come|be|have|get|do|put|book|swing|stop)|i ll (book|put|get|have|come|be|send|email|leave|bring|write)|we ll (book|put|get|have|come|be|send|start)|i ve got you down|got you down|put you down|book you|pencil you)\b/,
);

/** Agreeing with what was said, not with a step: "you're right", "true", "makes sense", "bet it was". */
const AGREES_WITH_CLAIM = loose(
  /^((um|uh|oh|well|yeah|yes|ha|huh|hmm|okay|ok|alright|no) )*(you re right|youre right|you are right|that s (right|true|fair|so true)|thats (right|true|fair)|true|so true|very true|exactly|fair (enough|point)|good point|point taken|makes sense|that makes sense|agreed|i agree|we agree|no argument|can t argue|cant argue|i won t argue|i wont argue|bet (it was|you did|he did|she did)|tell me about it|i hear that|same|same here|amen|you got it|you said it|you re not wrong|youre not wrong|it is|it does|they do|i know right|for sure|definitely|absolutely|yes ma am|yes sir)\b/,
);

/** Whether a reply agrees with a statement (an opinion or a fact put to the speaker). */
export function agreesWithClaim(reply: string): boolean {
  return AGREES_WITH_CLAIM.test(normalizeText(reply.split(/[.!?;]/)[0] ?? reply));
}
