import { looseContractions as loose, normalizeText, splitSentences } from '../text/normalise';

/**
 * A homeowner's push-back, read from one line: what it is about decides its kind (price,
 * competitor, stall, trust, need, time, worry), and a flat refusal or a lower figure named straight
 * after a quoted price is push-back on that price.
 */
/** The homeowner pushes back: what it is about decides the kind. */
const OBJECTION: { kind: string; re: RegExp }[] = [
  {
    kind: 'price',
    re: /\bchunk of (change|money)\b|\b(that s|thats|that is|it s|its) (still |really |quite )?(a lot|too much|expensive|pricey|steep|more than|crazy|a big number)|\b(grand|thousand|hundred|price|number|quote) (is|s|seems|sounds) (a lot|too much|way too much|steep|expensive|pricey|high)\b|\b(too|so) (expensive|much money)|\bmore than (i|we) (was|were|expected|thought|wanted)|\bcan t afford|cant afford|\b(lot of|lotta) money\b|\bnot in (the|our) budget\b|\b(you re|youre|that s|thats|it s|its) (\w+ ){0,2}(thousand|grand|hundred|dollars|bucks) (more|over|higher)\b|\b(that|it|this) (seems|sounds|feels) (a bit |kind of |really |pretty |way )?(high|steep|expensive|like a lot)\b|\bmoney s tight\b|\bmoneys tight\b|\bjust (for you )?to (come )?look at it\b|\boh my goodness\b|\bdon t like touching savings\b|\b(don t|dont|do not) (really )?(like|want|love) (the idea of )?(taking on |having |owing |being in |signing up for )?(any )?(debt|loans?|financ\w*|payments?|credit|interest|monthly payments?)\b|\b(don t|dont) want to (borrow|finance|owe|take on)\b|\b(it s|its|that s|thats|it is|this is|that is|this s|thiss) (going to|gonna|gon na) (be|cost) (\w+ )?(expensive|pricey|costly|a fortune|an arm and a leg|a lot|big money)\b|\b(sounds|sounding|looks|looking) (awfully |really |pretty |kind of )?(expensive|pricey|costly)\b|\b(can t|cant|couldn t|couldnt|cannot) (have|take on|handle|manage|swing|carry|stretch to|keep up with) (a |another |that |this |the |those |any |that kind of |a big )?(monthly |new |big )?(payment|payments|monthly bill|loan|note|kind of money)\b|\b(eating|eat|cutting|cut|digging|dig) into (my|our|the) (groceries|food|savings|pension|retirement|budget|medicine|rent|bills)\b|\bout of (my|our) (price )?(range|league|budget)\b|\b(don t|dont|do not|wouldn t|wouldnt|would not|not|rather not|not sure (i|we)) (really |exactly |particularly )?(want to|wanna|wan na|feel like|keen (on|to)|looking to|about to|going to|gonna|gon na) (put|spend|sink|invest|throw|pour|drop|dump|blow|putting|spending|sinking|investing|throwing|pouring) (\w+ ){0,4}(into|on|at)\b|\b(rather not|d rather not|would rather not) (put|spend|sink|invest|throw|pour) (\w+ ){0,4}(into|on|at)\b|\b(is not|isn t|isnt|not|hardly|wouldn t be|wouldnt be) (really )?worth (it|the money|that (kind of )?money|spending|putting|paying|sinking)\b/,
  },
  {
    kind: 'competitor',
    re: /\b(another|other|third|second) (company|contractor|quote|guy|companies|bid)|\b(get|gets|got|getting|always got|always get) (at least )?(a couple( of)?|a few|two|three|several|multiple|more|some other|other) (quotes|bids|estimates|prices)\b|\bshop(ping)? around\b|\bcompare (it )?(prices|quotes|bids|estimates)\b|\bthe first guy\b|\bneighbou?r got (hers|his|theirs|it)\b|\bgetting (prices|quotes|bids)\b|\bcheaper (somewhere|elsewhere|online)\b|\b[a-z]+ quoted (me|us)\b|\b(my|our) (sister|brother|neighbou?r|friend) used them\b|\b(he|she|they) (said (he|she|they) )?(could|can|would|d) (probably )?do (it|the job|the whole thing) for\b|\bpaid (way |a lot |much )?less\b|\bdoes \w+ on the side\b|\b(the|another|other|a|that|their|his|her) (guy|roofer|contractor|company|installer|outfit|crew|plumber|electrician|builder|handyman|salesman|rep)s? (who|that|from|they|the \w+ (had|used|got))\b.{0,60}\b(said|offered|told|quoted|would|could|will|d|ll)\b/,
  },
  {
    kind: 'stall',
    re: /\b(think (it|about it) over|think about it|sleep on it|not (today|tonight|right now)|not (signing|booking|deciding) anything|talk to my (wife|husband|partner|daughter|son)|want (my )?\w+ to (see|look at) it|show my (wife|husband|partner)|(husband|wife|partner) isn t|(husband|wife|partner) isnt|need to check with|get back to you|without (my )?(wife|husband|partner|son|daughter|[a-z]+)(?= (first|before|i|here|\.|$))|talk it over|(can t|cant) (really )?decide|(wants?|needs?|would want|will want|ll want) to (see|look at) (it|some|the|them|samples)|i don t sign|i dont sign|on a first visit|both quotes|side by side|i ll think about it|ill think about it|not comfortable (signing|deciding)|(couldn t|couldnt|can t|cant|won t|wont|wouldn t|wouldnt|not going to|not gonna|never) (\w+ )?(decide|do (this|anything|it)|sign|commit|say yes|buy) (anything )?without|(he|she|they) (does|do|handles?|makes?) (all )?(the )?(big |money |final |major )?(purchases|money|decisions|finances|numbers|buying))\b|\b(?!(me|us)\b)\w+ to (look|go|read) (at|over|through) (all )?(this|that|it|these|those|the \w+)( \w+)? first\b|\b(have|let|get) (?!(me|us)\b)(my \w+|him|her|them|\w+) (look|go|read) (at|over|through) (it|this|that|these|those|the (numbers|quote|estimate|paperwork|contract|options|price))\b|\b(run|check) (it|this|that|them|the \w+) (by|past|with) (my \w+|him|her|them)\b|\bwithout (first )?(asking|checking with|talking to|talking with|running it by|consulting|showing (it to )?) ?(him|her|them|my \w+)\b/,
  },
  {
    kind: 'trust',
    re: /\b(how do i know|ripped off|burned|burnt|scam|never saw (him|them) again|took a deposit|not handing anybody|every(one|body) says|is (that|it) even real|don t trust|dont trust|overpay|one of them|storm chasers?)\b/,
  },
  {
    kind: 'need',
    re: /\b(running fine|(it s|its|my \w+ s|my \w+s) fine|works fine|doesn t need|doesnt need|just needs a|probably just needs|nothing wrong with)\b/,
  },
  {
    kind: 'time',
    re: /\b(not a (great|good) time|bad timing|really bad time|gotta go|got to go|walking out the door|in a hurry|on a (work )?call|only (have|got) (a few|\w+) minutes|don t have (much |a lot of )?time)\b/,
  },
  {
    kind: 'worry',
    re: /\b(the (one )?(thing|part|bit) (i|we) (keep|kept) (coming back to|thinking about|worrying about|going back to|stuck on|hung up on)|(i|we) (just )?(can t|cant|cannot|couldn t|couldnt) (do|go through|live through|face|handle|take|deal with|survive|stomach) (that|this|it|all that|another|the \w+( \w+)?) (again|twice|a second time)|(i|we) (don t|dont|do not) want (to )?(go through|live through|deal with|repeat|relive) (that|this|it|all that|the \w+( \w+)?) again|(all|the) (mess|dust|noise|disruption|chaos|upheaval|strangers|people) (is|are|was|were) (what|the (thing|part)) (i m|im|we re|were|i am|we are) (worried|nervous|dreading|scared)|my worry|i m worried|im worried|worried (about|that)|nervous about|afraid (it|that)|my concern|can you (actually|really|even)|(will|would|does|is|can) (it|that|this|they|you) (actually|really) (\w+ )?(work|last|hold|fit|be (done|ready|finished)|get (it )?done|make it|happen))\b/,
  },
].map((o) => ({ ...o, re: loose(o.re) }));

// Relief is not push-back: "that's more than the other guys offered".
const NOT_OBJECTION = loose(
  /\b(that s|thats|that is|it s|its) (more|better) than (the |what )?(other|anyone|anybody)\b/,
);

/**
 * The homeowner names the (lower) figure they had in mind: "I was thinking two or three thousand",
 * "we'd figured more like five", "I was hoping for around eight hundred". Said straight after the
 * rep quotes a price it is push-back on that price; said in discovery it is only a budget.
 */
const EXPECTED_FIGURE = loose(
  /\b(i was|we were|i d|id|we d|wed|i had|we had|i d been|we d been|i m|im|we re|were) (kind of |sort of |really |honestly |just )?(been )?(thinking|expecting|figuring|figured|hoping|picturing|budgeting|guessing|planning|ballparking|imagining)( for| on| of)?( (something|somewhere|maybe|like|more|closer|around|about|under|less|nearer)( like| to| than| around)?)?( maybe| like| around| about)? (a (few|couple)|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|\d+)\b/,
);

/**
 * A flat refusal said straight after a quoted price ("No.", "Nope, not at that number.", "Whoa, no
 * way.", "We can't do that."): push-back on the price even when no money word is said.
 */
const REFUSAL = loose(
  /^((oh|um|uh|whoa|wow|yikes|well|hmm|sorry|yeah) )*(no|nope|no way|no thanks|no thank you|absolutely not|not a chance|not happening|forget it|not at that (price|number)|no not at that (price|number))$|^((oh|um|uh|whoa|wow|well|yeah) )*(we|i) (just )?(can t|cant|cannot|won t|wont|aren t going to|are not going to|re not going to) (do|pay|spend|swing|afford) (that|this|it|that much|that number|that kind of money)$/,
);

/** The quoted figure said back and refused in one breath: "sixteen eight no", "twenty grand? nope". */
const NUM_WORD =
  '(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|grand|k|\\d+)';
const ECHO_REFUSAL = loose(
  new RegExp(
    `^(\\w+ )?(oh |whoa |wow |um |uh )?(${NUM_WORD} ){1,4}(dollars |bucks )?(no|nope|no way|absolutely not|not a chance|forget it)\\b(?! (problem|worries|doubt|rush|pressure|question|kidding|wonder)\\b)`,
  ),
);

/** "That's more than the other guys offered": relief, not push-back (text normalized). */
export function soundsRelieved(norm: string): boolean {
  return NOT_OBJECTION.test(norm);
}

/** The kind of objection one homeowner line raises by its words, if any (text normalized). */
export function objectionKindOf(norm: string): string | undefined {
  return OBJECTION.find((o) => o.re.test(norm))?.kind;
}

/** "I was thinking two or three thousand": a figure the homeowner had in mind. */
export function namesExpectedFigure(norm: string): boolean {
  return EXPECTED_FIGURE.test(norm);
}

/** "No.", "Nope, not at that number", "sixteen eight? no": a flat refusal of what was just said. */
export function refusesFlatly(text: string, norm: string): boolean {
  return (
    ECHO_REFUSAL.test(norm) ||
    splitSentences(text).some((x) => REFUSAL.test(normalizeText(x.replace(/^\w+:\s*/, ''))))
  );
}
