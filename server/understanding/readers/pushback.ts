import type { ObjectionLabelKind } from '../labels';
import { looseContractions as loose, normalizeText } from '../text/normalise';

/**
 * A homeowner's resistance read by what it is about, not by set phrases: money they cannot or
 * will not spend (said straight, as a sum they would carry for years, as a fixed income, or with
 * irony), distrust of the company or of salesmen (a story about the last one, "you all say that"),
 * no need (it still works, it is young), the timing, someone else who must agree, the mess and
 * noise of living through the job, doubt about the product, and other quotes.
 */
const KINDS: [ObjectionLabelKind, RegExp][] = [
  [
    'price',
    loose(
      /\b(social security|fixed income|pension|retired (teacher|nurse)|on my check|living off (my|one) (check|paycheck|income)|laid off|refinance|second mortgage|drain(ed)? (our|my|their) savings|(dead|gone) before i pay|sell a kidney|arm and a leg|i could buy a (car|truck|boat)|that s (a )?(car|truck) payment|more than (we|i) paid for the (house|car)|can t swing|cant swing|out of (our|my) (league|range|budget)|too rich for|steep|pricey|(\d+|\w+) (grand|thousand|k) (for|on) (a|some|the) (deck|floor|roof|window|furnace)|is wild|that s insane|thats insane|highway robbery|rip ?off|you can forget|not in this economy|on one income|money to burn)\b/,
    ),
  ],
  [
    'trust',
    loose(
      /\b(the (last|other|first|previous) (guy|fella|man|roofer|window man|salesman|outfit|company|crew|rep|one)|you re the (second|third|fourth|\w+th) (roofer|company|guy|one|salesman)|you people|you guys all|u guys all|every(body|one|company) (says|has|tells)|sales tactic|crook|scam|shyster|fly by night|take (me|us) for a ride|get taken|being taken|trying (not )?to get taken|burned before|got burned|took (my|our) (money|deposit)|never (came|showed) back|how do i know you|why should i (trust|believe)|heard that before|heard that one)\b/,
    ),
  ],
  [
    'need',
    loose(
      /\b(only (\w+ ){0,2}(years?|yrs) old|isn t leaking|isnt leaking|not leaking|still works|works fine|working fine|runs fine|nothing s wrong|nothing is wrong|nothing wrong with|(years?|yrs) left|don t (even )?notice|dont (even )?notice|why (would|do) (i|we) need|why i need|do (i|we) really need|just needs a|only needs a|good for another|last(s)? another|nothing is (moving|squeaking|leaking)|not broken|aint broke|ain t broke)\b/,
    ),
  ],
  [
    'timing',
    loose(
      /\b(not this year|next (year|spring|summer|fall|winter)|after the (holidays|wedding|baby|season)|not (right )?now|not ready|bad time|not a good time|wait (for|till|until) (january|spring|summer|next)|we (can )?wait|(\d+|\w+) (weeks?|wks?)\?|too long to wait|hoping (for )?before)\b/,
    ),
  ],
  [
    'decision',
    loose(
      /\b(would have to|d have to|has to|have to|gotta|got to|need to|needs to|wants to|want to) (see|agree|sign off|look at|weigh in|okay|ok|approve|hear)\b|\b(call|ask|check with|talk to|run it by) (my|our) (son|daughter|husband|wife|partner|gf|bf|girlfriend|boyfriend|roommate|kids|brother|sister|mom|dad)\b|\b(he|she|they) (decide|decides|makes the decisions|handles the money|does the money)\b|\bthe one who decide\b|\bshared (lease|mortgage)\b|\bsplit (it|everything|the mortgage)\b/,
    ),
  ],
  [
    'disruption',
    loose(
      /\b(dust|mess|messy|noise|noisy|loud|smell|fumes|torn up|tear (up|out) the|living (through|in) it|work from home|wfh|the (dog|kids|baby) (hates|is scared|sleeps|naps)|under ?foot|how long (will|does|would) (it|the \w+) take|out of the (house|kitchen|bathroom) for|cereal in the bathroom|strangers in (my|the) house|break the plaster)\b/,
    ),
  ],
  [
    'product',
    loose(
      /\b(going to look cheap|look cheap|looks cheap|ugly|won t hold up|wont hold up|don t work (in|below|when)|dont work (in|below|when)|doesn t work (in|below|when)|not sure about (the|that|vinyl|laminate|composite|heat pumps?)|heard bad things|falls apart|cheap (plastic|vinyl|stuff)|will it (actually|really) (work|last|hold))\b/,
    ),
  ],
  [
    'competitor',
    loose(
      /\b(another (quote|company|bid|guy)|other (quote|quotes|company|companies|bids?|guy)|third company|second opinion|(cousin|brother in law|brother|nephew|buddy|friend|neighbou?r) (\w+ )?(does|did) (roofs|floors|windows|decks|hvac|it)|for cash|half (of )?your price|cheaper (somewhere|elsewhere|online|at)|the man before you|the guy before you|shop around)\b/,
    ),
  ],
];

/** The kinds of push-back one homeowner line carries, read by meaning (text normalized inside). */
export function pushbackKinds(text: string): ObjectionLabelKind[] {
  const n = normalizeText(text);
  return KINDS.filter(([, re]) => re.test(n)).map(([kind]) => kind);
}
