import { endsWithQuestionMark } from '../text/marks';
import { looseContractions as loose, normalizeText, splitSentences } from '../text/normalise';

/**
 * Speech acts of a rep's sentence, found from its grammatical form (question by inversion or
 * wh-word, proposal, let's-imperative, conditional "if ... I'll") plus what it is about (a
 * commitment, a day or time, a feeling, an option with a price). Every rule runs on normalized
 * text, so recogniser output (no punctuation, no capitals) reads the same as typed text.
 */

const LEAD =
  /^((so|and|but|okay|ok|alright|all right|well|um|uh|now|great|perfect|right|yeah|yes|oh|cool|sure|then|just|awesome|good|fine|no problem|done)\b\s*)+/;

export const strip = (norm: string) => norm.replace(LEAD, '');

/** What a commitment is about: a decision, paperwork or money down, a schedule, a visit. */
export const COMMIT = loose(
  /\b(schedule\w*|calendar|book(ed|ing)?|appointment|go ahead|move forward|moving forward|get (you |it |this |that |(the|your|this|that) (\w+ ){1,3})?(started|going|scheduled|booked|ordered|in|on (the|our|my) (\w+ )?(schedule|calendar|books|list))|application|date of birth|your initials|start (the|on|work)|sign(ed|ing)?( up)?|signature|paperwork|write (it|this|that|you) up|agreement|contract|deposit|(percent|%) down|down (payment|today)|lock (it |that |this |the \w+ )?in|hold (the|that|it|a|this) (\w+ )?(date|day|slot|spot|price|\w+th)|reserve|order (it|the|them)|put you (down|in)|pencil|come (back|by|out)|be (here|there|back) (on|at|when|for|saturday|sunday|monday|tuesday|wednesday|thursday|friday|tomorrow)|stop by|swing by|meet (with )?(you|both of you|the two of you) (on|at|there|when)|set (something|a time|it|that|a visit|an appointment) up|do (it|this|the job|the install)|go with (option|the|that|this)|take care of (it|this|that) for you)\b/,
);
/**
 * A month is a date only in a date's frame ("in June", "by the end of March", "June 12th", "the
 * third of May"): several months double as first names (April, May, June, August), and "may" as a
 * verb, so "How's June doing?" names nobody's appointment.
 */
const MONTH = '(january|february|march|april|may|june|july|august|september|october|november|december)';
const ORDINAL =
  '(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\\w+teenth|twentieth|thirtieth|(twenty|thirty) (first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|\\d+(st|nd|rd|th)?)';
const MONTH_DATE = `\\b(in|by|early|late|mid|until|till|before|after|through|this|next|of|end of|start of) ${MONTH}\\b|\\b${MONTH} (the )?${ORDINAL}\\b`;
export const DAY = loose(
  new RegExp(
    `\\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|this week|next week|weekend)\\b|${MONTH_DATE}`,
  ),
);
export const CLOCK = loose(
  /\b(\d{1,2}(:\d\d)? ?(a ?m|p ?m)\b|\d{1,2}:\d\d|at (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2})\b|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (o ?clock|thirty|a m|p m|am|pm|in the (morning|evening|afternoon))|noon|(ten|one|two|three|four|five|six|seven|eight|nine|eleven|twelve) or (ten|one|two|three|four|five|six|seven|eight|nine|eleven|twelve|noon))\b/,
);
/** A hedge turns a proposal into a soft one ("maybe I could come back sometime"). */
const HEDGE = loose(
  /\b(maybe|sometime|some time|at some point|whenever|someday|down the road|if you ever)\b|\b(kind of |kinda |sort of |sorta |just )?(go|take it) from there\b|\bsee (where|how) (things|it|we|you|everything)( \w+)? (go|goes|going|land|lands|landed|stand|stands|are|re|shake out|shakes out)\b|\bplay it by ear\b|\bfigure (it|things|the rest) out (then|later|as we go)\b/,
);
/** A made-up deadline: a price or slot that disappears unless they commit now. */
export const DEADLINE = loose(
  /\b(only|just) (good|valid|available|hold (it|this|that|the \w+))\b.{0,40}\b(today|tonight|now|this evening)\b|\b(goes|go) away when|\bwhen i walk out\b|\bbefore i (leave|walk out|go)\b(?! (up|down|in|into|inside|out (back|to|and)|over|around|through|on|ahead|and|to|take|look|check|measure|climb|grab|get|start))|\b(gone|taken) by (tonight|tomorrow|the end of the day)\b|\b(today|tonight) only\b|\b(tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday) (it s|its|it ll be|itll be|that s|thats) (gone|over|done)\b|\bif (we|you) (do|sign) (the paperwork |it |this )?(today|tonight|right now)\b|\bonly (opening|slot|spot) (this|left)\b|\bprice (goes|is going) up\b|\b(special|offer|deal|promotion|promo|sale|discount|pricing|price|rebate)s? (ends|expires|runs out|is over|is gone|goes away|is only good|is good (until|till|through))\b|\b(ends|expires) (today|tonight|tomorrow|this week|(on )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b|\bonly if (we|you|i|y all|you guys) (\w+ ){0,5}(today|tonight|right now|this evening|before i (leave|go))\b|\b(tomorrow|after today|after tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next week|in the morning) (it|that|this|the (price|number|deal|offer|special))( s| is)? (goes|go|will go|ll go|jumps|will jump|ll jump|is going|s going) (back )?(up|to)\b|\b(can t|cant|cannot|won t|wont|couldn t|couldnt) (hold|honou?r|keep|guarantee|promise) (it|((this|that|the|my|our) )?(price|number|deal|offer|special|discount|rate)|this|that) (past|after|beyond|longer than|until|till) (today|tonight|this evening|the end of the day)\b/,
);

const QUESTION_START =
  /^(can|could|would|will|shall|should|do|does|did|is|are|may|might|how about|what about|which|when|what day|what time|want to|wanna|you want|ready to|(how|what) (does|do|would|did) (that|this|it|you)\b)\b/;
/** Asks whether they have or can show something ("do you have the paperwork?"): a fact question, not an ask. */
const HAVE_ASK = /^((do|did) you (still )?(have|got|keep)|(can|could|may) i (see|look at|have a look at))\b/;
/** Asks what happened ("what happened on Saturday?", "when did it start?"): history, not a step put forward. */
const PAST_ASK = /^(what|when|how|why|where|who) (happened|did|was|were|went|started|broke|quit)\b/;
const CHOICE_ASK = loose(
  /\b(which|what) (one )?(ones|one s|is|works|would (work|be)|s) better\b|\bwould (\w+ ){1,4}or (\w+ ){1,4}(work|be) better\b|\bwhich (works|day|time|one)\b/,
);
const LETS = loose(/^(let s|lets|let me (get|put|book|pencil|write|lock|hold|grab))\b/);
const CONDITIONAL_COMMIT = loose(
  /\b(if|once|when) .{0,60}\b(i ll|ill|we ll|well|i will|we will|we d|wed|i can|we can)\b/,
);
/**
 * A fallback for the homeowner's absence ("if you're not home I'll leave it in the door", "if I
 * miss you I'll drop it in the mailbox"): a condition about nobody being there, not a commitment
 * the homeowner is asked to make.
 */
const ABSENCE_IF = loose(
  /\b(if|in case|when|should) (you re|youre|your|you are|he s|hes|she s|shes|they re|theyre|he is|she is|they are|you guys are) (\w+ )?(not|out|away|gone|at work)\b|\b(if|in case|should) (you|he|she|they) (aren t|arent|isn t|isnt|won t be|wont be|don t answer|dont answer|doesn t answer|doesnt answer|happen to be (out|away))\b|\b(if|in case) (there s nobody|there s no one|there is nobody|there is no one|nobody s|no one s|nobody is|no one is|nobody|no one) (home|here|there|around|in|answers|picks up)\b|\bif (i|we) (miss|don t catch|dont catch|can t catch|cant catch|can t reach|cant reach|don t see|dont see) (you|him|her|them|anybody|anyone)\b/,
);
const PROPOSE = loose(
  /\b(i|we) (could|can|d like to|would like to|d love to) (come|swing|stop|be|get|book|pencil|set|do|start|put)\b/,
);
const ASSUMPTIVE = loose(
  /\b(we d|wed|we ll|well) have you (on|in|scheduled|booked|installed)\b|\bi ve got (a crew|an opening|a slot|\w+ the \w+ open|\w+ open)\b/,
);
const TRIAL_TARGET = loose(
  /\b(option \w+|that one|this one|the \w+ (one|option|package|system|plan)|it|that|this) (sound|sounds|feel|feels|seem|seems) (like )?(the )?(right|good|best)( fit)?\b|\bright fit\b|\bis (option \w+|that|this|the \w+ one) the one\b|\b(does|do|would|is|are) (option \w+|that|this|it|the ([\w-]+ ){0,2}[\w-]+) (feel|sound|seem|look)s? (like )?(the one|the right (one|choice|pick)|a (good |great )?fit|your (pick|choice|favou?rite)|the winner)\b|\b(is|are|was) (option \w+|that|this|it|the ([\w-]+ ){0,2}[\w-]+) (the one|what) you ?(re|are|were|d be|would be) (leaning|drawn|inclined|thinking of|most drawn|favou?ring)\b|\b(which|what) (one|option|package|plan|system|way)( \w+)? (are|were) you (leaning|drawn|inclined|favou?ring)\b|\b(are|were) you leaning (toward|towards|to)\b|\bwhich (of these|option|one) (feels|sounds|fits)\b|\bhow does (that|this|option \w+) (sound|look|feel|seem)\b|\bis (that|this) something you d\b|^what do you (think|say)( (about|of) (it|that|this|option \w+|the \w+( \w+)?))?$|\bdo you (like|prefer) (option|the)\b/,
);

/**
 * A hedged invitation to decide: asks for the decision but commits nobody to it ("is that kind of
 * something you guys might want to do?", "any chance you'd want to go ahead?", "maybe you'd like to
 * get started?"). A soft ask, with or without the question mark.
 */
const HEDGED_ASK = loose(
  /\b(is|would|could|will) (that|this|it|option \w+|the \w+ (one|option|package|plan)) (\w+ ){0,2}something (you|you guys|y all|you all|you folks|you two|the two of you|your family|your household) (\w+ ){0,2}(might|would|d|could|may|want|wanna|wan na|be interested|like|consider)\b|\b(any chance|do you think|think) you (\w+ ){0,2}(might|would|d|could) (want|wanna|wan na|like|be up for|be ready) (to )?(do|go|move|get|try|start|pull the trigger|give)\b|\bmaybe (you d|youd|you would|you might|you guys d|you guys might|we could) (want to |wanna |like to )?(go ahead|do (it|this|that)|move forward|get (it )?started|give it a (go|shot|try))\b/,
);

/**
 * Checks whether a revised offer now fits, by inversion ("does that sound a little better?",
 * "would that feel more doable?", "is that any closer?"): a trial close, with or without the mark.
 */
const TRIAL_BETTER = loose(
  /\b(does|do|would|will|did|is|could) (that|this|it|the (new )?(number|price|payment|figure|monthly|total|\w+ option)) (sound|feel|seem|look|work|make it|sit) (\w+ ){0,2}(better|easier|closer|more (doable|manageable|reasonable|affordable|comfortable|like it))\b|\bis (that|this|it) (\w+ )?(better|closer|more like it)( for you)?$/,
);

const REACTION_ASK = loose(
  /(^|\b(so|yeah|okay|ok|well|and|anyway) )what do you (think|say)( (about|of) (it|that|this|option \w+|the \w+( \w+)?))?$/,
);

/**
 * The rep lays out their own next step (a written quote sent, a return visit): "I'll email you the
 * numbers", "I write it up and send it over", "we could come back Saturday".
 */
const OWN_NEXT_STEP = loose(
  /\b(i|we|i ll|ill|we ll|i will|we will|i would|we would|i d|id|we d|wed|i can|we can|i could|we could|i m going to|im going to|we re going to) (then |just )?(email|send|text|mail|write (it |this |that |them |everything |\w+ )?up|drop (it |them |\w+ )?off|put together|come back|swing back|stop back|bring (it|them|the \w+) (back|by|over))\b/,
);
/**
 * Asks the homeowner to agree to that step: "would that be fair?", "is that okay with you?",
 * "does that work for you?", "sound alright?". With the step, it asks for a next step (softly).
 */
const PERMISSION_CHECK = loose(
  /\b(would|will|does|is|could|can|should) (that|this|it) (be|sound|seem|work|feel) (\w+ )?(fair|okay|ok|alright|all right|reasonable|acceptable|good|fine)( (with|for|to|by) (you|you both|both of you))?$|\b(would|will|does|do|is|could) (that|this|it|that plan) work( for (you|you both|both of you))?$|\b(is|would|will) (that|this|it) (\w+ )?(okay|ok|alright|all right|fair|fine)( (with|for|by) (you|you both|both of you))?$|^((so|and|okay|ok) )*(sound|sounds|seem|seems) (fair|okay|ok|alright|all right|good|reasonable)$|\b(are|would) you (be )?(okay|ok|alright|all right|comfortable|good) with (that|this|it)$|\b(can|could|may) i (do that|go ahead with that)$/,
);

const EMBEDDED_ASK =
  /\b(can|could|would|shall|should|may) (i|we) (come|be|get|book|put|set|stop|swing|schedule|start|go)\b|\b(would|do) you (\w+ )?(like|want) to\b/;

const WEEKDAY = loose(
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|this week|next week|weekend)\b/,
);
/** Asks about the homeowner's own use of the thing: "would you use it in winter", "do you run the AC in July". */
const USAGE_Q = loose(
  /\b(you|you guys|y all|you two|the (kids|family)|your (family|kids|husband|wife|partner)) (\w+ ){0,2}(use|using|used|need|needing|be out (here|there)|spend time|sit out|run|running|heat|heating|cool|cooling|open|opening|live in|be in (it|there|here))\b/,
);

export interface CloseAct {
  /** 'ask' = a decision or next step asked for; 'trial' = checking the fit of an option. */
  kind: 'ask' | 'trial';
  /** A firm ask names the decision, paperwork or a day/time; a soft one is hedged. */
  firm: boolean;
  /** Leans on a made-up deadline. */
  deadline: boolean;
  sentence: string;
}

function isQuestionForm(sentence: string, norm: string): boolean {
  return endsWithQuestionMark(sentence.trim()) || QUESTION_START.test(strip(norm)) || CHOICE_ASK.test(norm);
}

/** The closing acts in one rep turn (an ask for a decision or next step, or a trial close). */
export function closeActs(text: string, turnNorm: string): CloseAct[] {
  const out: CloseAct[] = [];
  const sentences = splitSentences(text);
  const deadline = DEADLINE.test(turnNorm);
  const turnWhen = DAY.test(turnNorm) || CLOCK.test(turnNorm);
  for (const s of sentences.length ? sentences : [text]) {
    const n = normalizeText(s);
    const clauseStarts = [
      strip(n),
      ...[...n.matchAll(/\b(so|and|then) (?=(can|could|would|do|does|is|are|shall|let s|lets) )/g)].map((m) =>
        n.slice((m.index ?? 0) + m[0].length),
      ),
    ];
    // Unpunctuated run-on text: an inverted "can I / would you / shall we" inside it still asks.
    const runOn = !/[.?!]/.test(s) && s.split(/\s+/).length > 8;
    const question =
      isQuestionForm(s, n) ||
      (runOn && (clauseStarts.slice(1).some((c) => QUESTION_START.test(c)) || EMBEDDED_ASK.test(n)));
    // "Let's" commits only to what it governs: "let's keep her colors ... three ways to do it" is
    // no ask, "let's get you on the schedule" is. Read the words right after it.
    const letsClause = clauseStarts
      .find((c) => LETS.test(c))
      ?.split(' ')
      .slice(0, 10)
      .join(' ');
    const lets = !!letsClause && (COMMIT.test(letsClause) || DAY.test(letsClause) || CLOCK.test(letsClause));
    const target = COMMIT.test(n);
    // "Would you really use it in January?" asks about the homeowner's own use of the thing, in a
    // season or month: discovery, not a day put to them for the job.
    const usageWhen = !CLOCK.test(n) && !WEEKDAY.test(n) && USAGE_Q.test(n);
    const when = (DAY.test(n) || CLOCK.test(n)) && !usageWhen;
    const choice = CHOICE_ASK.test(n) && turnWhen;
    const hedged = (HEDGE.test(n) || HEDGED_ASK.test(n)) && !CLOCK.test(n);
    const askForm =
      choice ||
      (question &&
        (target || when) &&
        !HAVE_ASK.test(strip(n)) &&
        !PAST_ASK.test(strip(n)) &&
        !/\b(did|was|were|have you|has)\b/.test(strip(n).split(' ')[0] ?? '')) ||
      lets ||
      (CONDITIONAL_COMMIT.test(n) && target && !ABSENCE_IF.test(n)) ||
      ASSUMPTIVE.test(n) ||
      (PROPOSE.test(n) && (target || when) && !/\bi could (tell|show|explain)\b/.test(n));
    if (askForm) {
      out.push({
        kind: 'ask',
        firm: !hedged && (when || target || choice),
        deadline: deadline || DEADLINE.test(n),
        sentence: s,
      });
      continue;
    }
    // "I write it up and email it to you. Would that be fair?" asks them to agree to the step.
    if (PERMISSION_CHECK.test(n) && OWN_NEXT_STEP.test(turnNorm)) {
      out.push({ kind: 'ask', firm: false, deadline: deadline || DEADLINE.test(n), sentence: s });
      continue;
    }
    if (HEDGED_ASK.test(n)) {
      out.push({ kind: 'ask', firm: false, deadline: deadline || DEADLINE.test(n), sentence: s });
      continue;
    }
    // "So, what do you think?" after the options asks for their reaction, with or without a mark.
    if ((question && TRIAL_TARGET.test(n)) || REACTION_ASK.test(n) || TRIAL_BETTER.test(n))
      out.push({ kind: 'trial', firm: false, deadline: false, sentence: s });
  }
  return out;
}

/** The homeowner offers the next step or asks what happens now: a buying signal. */
export const BUYING_SIGNAL = loose(
  /\b(what happens (now|next)|what s (the )?next|whats (the )?next|how soon (can|could)|when (can|could) you (start|do it)|how does (this|it) work from here|should we (like )?(set|book|schedule|do) (something|a time|it)|(set|book) something up)\b/,
);
/** The homeowner agrees. */
export const AGREES = loose(
  /^((um|uh|oh|well|okay|ok) )*(yes|yeah|yep|sure|okay|ok|sounds good|let s do it|lets do it|absolutely|definitely|that works|perfect|great|fine|i suppose|i guess|deal|good)\b|\b(let s do it|lets do it|that works|(?<!(doesnt|dont|not|never) )works( for (me|us))?|sounds good|is good|s good|s fine|is fine|makes sense|we re both home|were both home|i ll be here|ill be here|see you then)\b/,
);
export const DECLINES = loose(
  /\b(i|we|id|wed|ill) (\w+ )?(need|needs|have|got|gotta|want|ll want|ll need|ll have|d have|d need|d want|should|would want) (to )?(talk (to|with|it over with|this over with)|speak (to|with)|check (with|in with)|run (it|this|that|the \w+) (by|past)|show (it to |this to |that to )?|ask|discuss (it|this|that) with|go over (it|this|that) with) (?!(you|your (crew|office|company))\b)(my |our )?\w+( \w+)? (first|before|about it|about this|about that|he|she|they|\w+ ll)\b|\b(maybe|possibly|we ll see|perhaps)\b.{0,20}\b(need|have|got|want) to (talk|speak|check|show|ask|run)\b|^((um|uh|oh|well) )*no\b|\b(not today|not tonight|think (it|about it) over|think about it|not (signing|deciding|ready|booking)|need to think|talk to my|get back to you|i don t sign|i dont sign|if i want you|we ll see|well see|not comfortable)\b/,
);

// ---------------------------------------------------------------- empathy acts

/** Names or mirrors a feeling: "that's scary", "so that's the fear", "that's a lot". */
export const NAME_FEELING = loose(
  /\b(gets|getting|got|get) (old|tiring|exhausting) (fast|quick|quickly|real fast|pretty fast|after a while)\b|\b(wears|wearing|wore) (on you|you (down|out|thin))\b|\b(that s|thats|that is|it s|its) no way to live\b|\btakes (a|its) toll\b|\b(that s|thats|that is|that was|it s|its|sounds|that sounds|must (be|have been)|must feel|how) (so |really |pretty |just |such )?(a )?(scary|frightening|rough|tough|hard|frustrating|stressful|awful|annoying|exhausting|upsetting|heartbreaking|a nightmare|a lot|a pain|a worry|worrying|lonely|overwhelming|no fun|miserable|a relief|a real (worry|pain|headache))\b|\bthe fear\b|\b(you re|youre|you must be|you ve been) (on guard|worried|nervous|scared|exhausted|tired|fried|frustrated|fed up|stressed)\b|\bsorry (that happened|to hear|about (that|your|the)|for your|you (had|went|re dealing))\b|\b(i d|id|i would) (hate that|be (nervous|worried|frustrated|upset|scared|careful too|wary))\b|\bi can (only )?imagine\b|\b(oof|ugh|oh no|oh man|oh wow)\b.{0,60}\b(you|your)\b|\bnobody (wants|should have)\b|\bsounds like (you re|youre|you ve|youve|you have|you are) (\w+ )?(slammed|busy|swamped|stressed|worried|nervous|been through|had a|dealing)\b/,
);
/** Asks after the homeowner's or the family's safety or wellbeing: care shown as a question. */
export const CARE = loose(
  /\b(has|have|did|was|were|is|are) (anybody|anyone|someone|somebody|everyone|everybody|you|he|she|they|the kids|your \w+) (gotten |got |been |get )?(hurt|injured|sick|ok|okay|alright|all right|safe)\b|\bhow (are|is) (you|she|he|they|everyone|everybody|your \w+) (holding up|coping|managing|doing with|feeling)\b|\bhow (is|are) (she|he|they|your \w+) doing\b|\bare you (ok|okay|alright|all right)\b|\b(does|do|is|are|has|have) (she|he|they|you|your (kids?|dog|cat|baby|son|daughter|husband|wife|mom|dad|mother|father|family)|the (kids|dog|cat|baby)|(?!(it|that|this|everything|things|there|the|your|its|thats)\b)[a-z]+) (do|doing|get|getting|manage|managing|cope|coping|manage|been (doing|getting|managing|coping)) (ok|okay|alright|all right|around|along)\b/,
);
/** An exclamation of dismay ("oh no", "ugh", "yikes"), which names a feeling when it meets their words. */
export const DISMAY = loose(
  /^((oh|ah|aw|well) )?(oh no|oh dear|oof|ugh|yikes|ouch|oh man|aw man|oh gosh|oh jeez)\b/,
);
/** Says their worry or choice is reasonable. */
export const VALIDATE = loose(
  /\bno wonder\b|\byou (should|re right to|were right to|have every right to) (ask|be|check|compare|want)\b|\bthat s not (okay|ok|right|fair|how it s supposed)\b|\bthats not (okay|ok|right|fair|how)\b|\bnot how it s supposed to\b|\b(that s|thats|that is) (a )?(totally |completely |really )?(smart|fair|a good rule|a fair question|a good question|a great question|understandable|reasonable|wise|sensible)\b|\b(fair|good|great) (question|point)\b|\bfair enough\b|\b(totally|completely|very|okay|ok) fair\b|\bi don t blame you\b|\bi dont blame you\b|\bmakes (total|complete|perfect) sense\b|\bit s (her|his|your|their) (house|home|money|decision) too\b|\byou ve earned\b|\bshe was right\b|\bhe was right\b|\bgood (instinct|call|rule)\b|\bthat s real money\b|\bis real money\b|\bbig (number|decision)\b|\b(it s|its|that s|thats|nothing s|nothings) (not |nothing )?(embarrassing|to be embarrassed about|silly|dumb|your fault|weird|crazy)\b|\b(it s|its|that s|thats|it is|that is|you re|youre|you are) not (\w+ )?(ridiculous|silly|stupid|dumb|crazy|paranoid|overreacting|dramatic|being (silly|dramatic|difficult|picky|paranoid|ridiculous)|a (dumb|silly|stupid) question|too much to ask|picky|fussy|petty)\b|\byou re not (the only one|alone|crazy|being silly|overreacting)\b|\b(totally|completely|perfectly|pretty|really) normal\b|\bhappens to (everyone|everybody|all of us|the best of us)\b|\b(common|normal|natural|understandable) (feeling|worry|concern|reaction|question)\b|\b(and )?(sometimes )?you (re|were) (right|not wrong)\b/,
);
/** Fits the visit to the homeowner's situation: their time, their sleep, their pace. */
export const ACCOMMODATE = loose(
  /\b(i ll|ill|i will|let me) keep (this|it) (tight|short|quick|brief)\b|\bi don t want (you|to keep you|to make you)\b|\bi dont want (you|to keep you|to make you)\b|\bso you (can|don t have to|dont have to|won t have to|get to)\b|\bgo (get some|grab)\b|\btake your time\b|\bi won t push\b|\bi wont push\b|\bno rush\b|\bi ll wait\b|\bdon t be late\b|\bdont be late\b|\btaken up enough of your\b|\bat your (pace|convenience)\b|\bwhatever works for you\b|\bgo go\b|\bhere let me (get|help)\b|\bi ll be quick\b/,
);
/** Personal warmth: the pet, the kids, the house, thanks for their time, congratulations. */
export const RAPPORT = loose(
  /\b(hi|hello|hey) (buddy|there (buddy|pal)|\w+ s?)\b(?=.{0,20}(big|cute|sweet|good) (boy|girl|one))|\b(beautiful|gorgeous|lovely|nice|great|cute|big) (home|house|place|yard|garden|dog|boy|girl|kitchen|porch|neighborhood|street|photo|picture)\b|\bis that you (on|in|at)\b|\bthanks? (you )?(so much )?for (having me|making (the )?time|your time|letting me|inviting me|the (coffee|tea|chai))\b|\bappreciate you having me\b|\b(nice|great|good|pleasure) (to meet|meeting)\b|\bcongrat\w*\b|\bgood luck\b|\bhi buddy\b|\bi d love (one|some|that|to meet)\b|\bid love (one|some|that|to meet)\b|\bi ve seen worse\b|\bi see the (cleats|bucket|photo|dog)\b|\bhello,? \w+\b.{0,10}\b(he s|hes|she s|shes) a\b|\bi ll say hi\b|\benjoy the\b|\bhow are you\b|\b(he s|hes|she s|shes|they re|theyre) (so |really |just )?(adorable|gorgeous|beautiful|precious|a sweetheart|a cutie|so cute|cute|sweet|lovely|a doll|a darling|a good (boy|girl))\b|\bi (had|have|ve got|grew up with) (a|an|my|our) (\w+ ){0,2}(who|that) (made it|lived|used to|did|was|would|still)\b|\b(same|that) (thing )?happened (to (me|us)|at (my|our) (house|place))\b|\bwe (had|went through) the (same|exact same) (thing|problem|issue)\b|\bhow did (they|he|she|the game|it go|the team)\b|\bgood for (him|her|them|you)\b|\bmy (mom|dad|mother|father|grand(mother|father|ma|pa)|parents|wife|husband|own) (went|had|did)\b/,
);
/**
 * A claim to understand or share the feeling that names nothing of what was said: "I hear you",
 * "I totally get it", "I know exactly how you feel", "I appreciate you sharing that".
 */
export const UNDERSTAND_CLAIM = loose(
  /\bi (totally |completely |really |fully |definitely |absolutely )?(understand|get it|get that|hear you|here you|know (exactly |just )?how you feel|feel (you|your pain))\b|\bi (really |totally )?appreciate you (sharing|telling me|saying)\b|\bi know exactly\b/,
);
/** Plain courtesy and acknowledgement. */
export const COURTESY = loose(
  /^((oh|yeah|ha|well|okay|ok|right|totally|yes) )*(no worries|no problem|of course|absolutely|sorry|fair|right|totally|i (totally |completely |can )?(understand|get it|hear you|here you|hear that)|makes sense|that makes sense|fair enough|sure thing|got it|i see|ha|haha|good to know|glad|thank you|thanks)\b|\b(that s|thats) (really )?good to know\b/,
);
/** Leans on fear, guilt or the clock to push a decision. */
export const FEAR_PRESSURE = loose(
  /\b(every (week|day|month) you wait|you could (fall|get hurt|lose)|end up (right )?back in the hospital|before it s too late|(throw|throwing|threw|flush|flushing|pour|pouring) (\w+ )?(your |that |the |good |this )?money (away|down the drain)|wast(e|ing) (your|that|good|the) money|you (want|d want|wanna|need) (\w+ ){0,5}(don t|dont|wouldn t|wouldnt) you|(you ll|youll|you will|you d|youd|you re going to|youre going to|you re gonna|youre gonna) (regret|kick yourself|be kicking yourself)|before someone gets hurt|not the one (climbing|paying|living)\b.{0,40}\b(is he|is she|are they))\b/,
);
/** Runs down the homeowner's view or a competitor instead of exploring it. */
export const DISMISS = loose(
  /\b(trust me|give it (two|a few|\w+) years|you get what you pay for|doesn t matter|doesnt matter|that s not true|thats not true|you re wrong|youre wrong|(?<!\b(if|unless|even if|as if) (\w+ ){0,4}(were|was|are|is|re|s|got|get|looked|look) (\w+ )?)(?<!\b(not|no|never|isn t|isnt|aren t|arent|wasn t|wasnt|weren t|werent) (\w+ )?)(garbage|junk)|wouldn t let them near|wouldnt let them near|don t worry about (it|that)|dont worry about (it|that)|(every(body|one)|they all|people always) (says?|has|have|thinks?|tells? me) (that|this|the same( thing)?|\w+ in (their|his|her) (head|heads|mind|minds))|(that s|thats|that is) what (they|everybody|everyone) (all )?says?|i hear that (all the time|every day|a lot|constantly))\b/,
);
/** Insults and profanity: never praised, never quoted as a strength. */
export const ABUSE = loose(
  /\b(fuck\w*|shit\w*|bullshit|damn it|goddamn|bitch\w*|bastard|idiot\w*|stupid|moron\w*|dumb\w*|crap|shut up|cheap ?skate|loser|pathetic|ridiculous lady|lady,? (listen|look))\b/,
);
/** The homeowner opens up: a loss, a fear, a hardship, something that mattered to them. */
export const DISCLOSURE = loose(
  /\b(used to|passed (away|last|in|on|this|recently|a (few|couple)|\w+ (years?|months?|weeks?) ago)|died|widow\w*|since (he|she) (died|passed)|nightmare|scared|afraid|terrified|worried|worry|hate (it|that|having|to)|can t (breathe|sleep|lift|afford|manage)|cant (breathe|sleep|lift|afford|manage)|the er\b|hospital|emergency|cancer|sick|surgery|hip|lost (my|our|his|her|the job)|laid off|fixed income|pension|burned|ripped off|disappeared|twelve hour|night shift|exhausted|fried|stress\w*|first house|just moved|miserable|unbearable|in tears|crying|can t stand it|cant stand it|at (my|our|his|her) wits end)\b/,
);
