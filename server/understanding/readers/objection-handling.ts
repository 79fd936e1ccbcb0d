import { looseContractions as loose } from '../text/normalise';

/**
 * How a rep meets push-back, read from the rep's lines (normalized): a question that clarifies
 * the concern, a check that the answer landed, a concession on price, a reason given, the worry
 * raised before the homeowner does, an offer put as a question, denial of the homeowner's framing,
 * waving a budget away, changing the subject, and a close that keeps the homeowner's condition.
 * The coach scores each objection's handling with these.
 */

/** A question that asks into something: what, how, which, why, can I ask, do you know, tell me. */
export const CLARIFYING_QUESTION = loose(
  /\b(what|how|which|why|can i ask|can i see|do you know|was it|were those|is it|is there|what s|whats|tell me)\b/,
);

/**
 * Checks the answer landed: "does that make sense?", "would that make it workable for you?", "is
 * there anything else holding you back?", "does that fit what you had in mind?".
 */
export const CHECKS_ANSWER_LANDED = loose(
  /\b(would|does|will|could|can) (that|this|all that|all of that) (make|leave) (it|this|that|things|the (job|project|work|install)) (\w+ )?(workable|doable|manageable|bearable|livable|easier|ok|okay|alright|all right|work)( for (you|you both|both of you|the family|your family))?\b|\b(does that (make sense|explain|help|answer|sound|work|cover|take care|make it|change|ease)|would that (make you feel|help|work|ease|address|take care)|how does that sound|is that (fair|helpful)|(is there )?(anything|something) else (holding|that would|stopping|on your mind|you d want|you would want|in their|i should)|did that answer|(does|would|will) (that|this) (feel|seem|be) (\w+ )?(workable|doable|manageable|fair|reasonable|more comfortable)|do you feel better|feel better about|feel good about it|is that on your mind|(does|would|will|could|is) (that|this|it|the \w+( \w+)?) (\w+ ){0,2}(fit|suit|sit right with|work for) (you|your|what|inside|within|in)|\b(fits?|sits?|falls?|stays?|comes? in) (inside|within|under) (what|your|the (number|budget|amount|limit))|(is|does) (that|this|it) (\w+ )?(within|inside|under) (what|your)|(does|would|will) (that|this|it) (feel|sound|seem) (\w+ )?(right|okay|ok|comfortable|safe|doable|affordable|manageable)( to you| for you)?|(would|could|does|will) (that|this) (work|do it) for (you|you both|both of you|the two of you|your budget)|(answer|cover|settle|take care of|address) (both|all|each) of (those|them|that|your)|put your mind at (ease|rest))\b/,
);

/** Gives ground on price: knocks some off, a discount, a special price, calls the manager, beats or matches. */
export const PRICE_CONCESSION = loose(
  /\b(take|knock|shave|drop) (\w+ )?(\w+ )?(off|down)\b|\b(i can|let me) (do|get you|go) (it for|down to|to)\b|\bdiscount\b|\bpromotional price\b|\bcall my manager\b|\b(he ll|hell|she ll|shell|they ll|theyll) go (to|down)\b|\bspecial (price|deal)\b|\bflexibility on\b|\bbeat (it|their|that|the|whatever|any)\b|\bmatch (whatever|their|it|any)\b|\b(percent|%) (off|under)\b/,
);

/** Asks what someone wants, needs, thinks or worries about: a question about the concern itself. */
export const ABOUT_CONCERN = loose(
  /\b(what|whats|what s|why|how|which) (\w+ ){0,4}(want|wants|need|needs|ask|asks|worry|worries|worried|think|thinks|feel|feels|care|cares|concern|concerns|concerned|know|mean|matter|matters|expect|expects|bother|bothers|bugging)\b/,
);

/** Words of a reasoned answer: because, the difference, a warranty, insurance, references, financing, a rebate. */
export const GIVES_REASON = loose(
  /\b(because|so that|which means|the reason|that s why|thats why|the difference|what that means|warranty|licen[cs]\w*|insured|insurance|reference\w*|photos|proof|samples?|guarantee|compared|versus|vs|label|rebate|financing|\d+ percent|zero percent|months|nothing s due|nothing due|no deposit|don t take a dime|look it up|come back|both home|both here|plastic|one day|credit|comes off)\b/,
);

/**
 * The rep raises the usual worry before the homeowner does: "you might be wondering", "a lot of
 * folks worry", "two things catch people off guard", "what surprises most people is", "people
 * don't expect the mess", "I'd rather tell you now than have you find out later".
 */
export const PRE_EMPTS_WORRY = loose(
  /\b(you might be (wondering|thinking)|a lot of (people|homeowners|folks) (worry|ask|wonder)|you re probably (wondering|thinking)|youre probably (wondering|thinking)|before you ask|the (usual|common) (worry|concern|question)|most people (worry|ask))\b|\b(catch|catches|caught|take|takes|took) (a lot of |most |some )?(people|folks|homeowners|customers|clients) (off guard|by surprise|aback|unawares)\b|\b(surprises?|surprised|trips? up|bothers?|worries|throws?) (a lot of |most |some )?(people|folks|homeowners|customers|clients)\b|\b(people|folks|homeowners|customers|clients) (don t|dont|do not|never|rarely|often don t|often dont) (expect|think about|realize|realise|plan for|see coming)\b|\b(i d|id|i would) (rather|sooner) (talk about|tell you about|mention|bring up|raise|flag|go over|warn you about|cover) (\w+ ){0,4}(now|up front|upfront|today|first)\b|\b(rather|sooner) (\w+ ){0,4}now than (have you|you) (find|finding|learn|discover|be surprised)\b/,
);

/**
 * Offers something that would meet the concern, put as a question: "would it help if I came back
 * when he's home?", "what if we left samples?". Accepted, it answers the objection and confirms it.
 */
export const OFFERS_TO_MEET_CONCERN = loose(
  /\b(would|does|will|might) it help (if (i|we)|to|for (me|us|you) to)\b|\bwhat if (i|we)\b|\bhow about (i|we|if (i|we))\b/,
);

/**
 * Denies the homeowner's own framing instead of exploring it: "this isn't really debt", "it's
 * really not that much", "that's not actually expensive".
 */
export const DENIES_FRAMING = loose(
  /\b(is|s|are|re|was) not (really|actually|even)\b|\b(isn t|isnt|aren t|arent|wasn t|wasnt) (really|actually)\b|\b(it s|its|that s|thats|this is) (really|actually) not\b/,
);

/**
 * Waves the homeowner's budget away as unrealistic instead of exploring it: "that's just what
 * windows cost these days", "that's the going rate", "you won't find anyone who'll do it for
 * that", "you can't get a roof for eight", "anyone who quotes that is cutting corners".
 */
export const DISMISSES_BUDGET = loose(
  /\b(that s|thats|that is|it s|its|this is) (just|simply|only) (what|how much) (\w+ ){0,3}(costs?|go for|goes for|run|runs|are|is) (now|today|these days|nowadays|anymore|everywhere)\b|\b(that s|thats|that is|it s|its) (just )?the going rate\b|\b(you|nobody|no one|anybody|anyone) (really |honestly |just |simply )?(can t|cant|cannot|won t|wont|will not|isn t going to|couldn t|couldnt) (do|get|find|buy|build|have) (\w+ ){0,4}(for|at|with) (that|ten|\w+ (thousand|grand)|that (kind of )?(money|budget|number|price))\b|\b(anybody|anyone|whoever|somebody|someone|they|any (company|contractor|guy|one)) (\w+ ){0,3}(quoting|quotes|charging|charges|offering|offers|doing it for) (you )?(\w+ ){0,2}(is|are|s|re) (cutting corners|cheating you|lying|not (being )?honest|skimping)\b|\b(isn t|isnt|is not|not) (realistic|going to happen|gonna happen) (for|at|with) (that|ten|\w+ (thousand|grand))\b/,
);

/** Put as a question: a question mark, or a verb that opens one (is, does, are, would, do). */
export const putsAsQuestion = (text: string): boolean => /\?|\b(is|does|are|would|do)\b/.test(text);

/** Opens by acknowledging: "yeah", "totally", "fair", "I hear you", "of course", "good question". */
export const opensByAcknowledging = (norm: string): boolean =>
  /^((oh|okay|ok|well) )*(yeah|yes|totally|fair|right|i hear|i understand|i get|of course|good question|great question)\b/.test(
    norm,
  );

/** Asks whether this is the only concern: "is price the only thing?". */
export const asksIfOnlyConcern = (norm: string): boolean =>
  /\bis (price|that|cost) the only thing\b/.test(norm);

/** A pressure phrase that only vouches for the speaker ("trust me"), no pressure on its own here. */
export const vouchesForSelf = (phrase: string): boolean => /trust me/.test(phrase);

/** "Oh sure. Anyway, the colours...": the reply moves on instead of answering. */
export const changesSubject = (norm: string): boolean =>
  /^((oh|okay|ok|yeah|sure|right|well)\s+)*(anyway|anyhow|moving on)\b/.test(
    norm.replace(/^((oh|okay|ok|yeah|sure|right|well)\s+)+/, '').replace(/^(sure|okay|ok)\s+/, ''),
  );

/** A conditional close that keeps the homeowner's condition: "if Mark's on board, ...". */
export const keepsTheirCondition = (norm: string): boolean =>
  /\bif (\w+ )?(s|is|are|re)? ?(on board|agrees|likes|okay|happy)\b/.test(norm);
