import { looseContractions } from '../text/normalise';
import type { Stage } from '../../../core/stages';

/**
 * What a homeowner in each trade really needs (the needs areas a discovery should cover).
 * Patterns run on normalized text (lowercase, no apostrophes or punctuation), so they match
 * recogniser output as well as typed text.
 */
export interface NeedArea {
  id: string;
  label: string;
  /** The trouble as a short noun phrase a coaching line can name ("the leak"), for problem areas. */
  phrase?: string;
  pattern: RegExp;
}

const UNIVERSAL: NeedArea[] = [
  {
    id: 'alternatives',
    label: 'what they have tried or compared',
    pattern: /\b(tried|compar\w*|other (quotes?|compan\w*|bids?)|looked at|what s on that|whats on that)\b/,
  },
  {
    id: 'outcome',
    label: 'the outcome they want',
    pattern:
      /\b(look like|picture|ideal|perfect|dream|got this right|want to use|once it s done|once its done|when it s done|when its done)\b/,
  },
  {
    id: 'motivation',
    label: 'why now',
    pattern:
      /\b(got you (looking|thinking)|what s going on|whats going on|why now|what brings|what brought|made you (call|decide|think)|giving you trouble|the problem|bothering you|thinking about it now|looking in the first place|what happened|part of (why|the reason)|why (we re|were|we are|you re|youre|you are) (talking|looking|doing|thinking))\b/,
  },
  {
    id: 'budget',
    label: 'budget',
    pattern:
      /\b(budget|spend|invest|afford|quotes?d?|quoted|financ\w*|monthly payment|price range|ballpark you|(a|the) (number|figure) (you\w*|in mind)|stay (around|under|within|below) (a|the|that)?|fixed income|on a (tight|fixed|limited) (budget|income)|money s tight|(put|set|saved|saving|putting|setting) (\w+ ){0,3}(aside|away) for|savings)\b/,
  },
  {
    id: 'horizon',
    label: 'how long they will stay',
    pattern:
      /\b(how long (are|re|will|do|have) you (planning|plan|going|gonna|staying|be|been|lived|living|see yourself|see yourselves)|planning (on|to) (stay|be|being|live|sell)|stay(ing)? in the (house|home)|sell(ing)? (the house|down the road)|(want|plan|going|hoping|mean) to stay (here|put|in this)|not going anywhere|forever home|years? (from now|down the road)|long term|how long (would|do|will|d) you (like|want|need|expect) (it|this|them|(the|this|your|a)( \w+){1,2}) to last)\b/,
  },
  {
    id: 'timeline',
    label: 'timeline',
    pattern:
      /\b(timeline|timeframe|time frame|how soon|when (were|are|would) you (hoping|looking|wanting)|by when|deadline|(the )?(latest|soonest|earliest) (date |day |point )?(you d|youd|you would|you can|you could|you need|you want|it can|it could|it should|it has to|we can|we could)|when (do|would|does|will|did) (you|it|this|that|the \w+|they) (need|want|have) (\w+ ){0,3}(done|finished|in|ready|installed|wrapped up|complete|completed)( by)?|(done|finished|ready|installed|in|wrapped up|complete|completed) by$|(is there|have you got|do you have|got) (a|any) (date|target date|cut ?off) (in mind|you re working|youre working|you re aiming|youre aiming|to hit)?)\b/,
  },
  {
    id: 'decision',
    label: 'who decides',
    pattern:
      /\b(anyone else|anybody else|who else|part of the decision|decision maker|make the decision|your (wife|husband|partner|spouse) (think|feel|want)|(what|how) (has|have|does|do|did|would|will|is|s) (your|the) (wife|husband|partner|spouse|daughter|son|kids|children|family|mom|mother|dad|father|sister|brother|parents)s? (said|say|saying|think|thought|feel|felt|want|wanted|like)|(does|do|will|would) (your|the) (wife|husband|partner|spouse|daughter|son|family|parents) (need|want|have) to (see|sign|be here|weigh in|look))\b/,
  },
  {
    id: 'priorities',
    label: 'what matters most',
    pattern:
      /\b(most important|matters (most|to you)|what else matters|anything else that matters|priority|priorities|what would make)\b/,
  },
];

const TRADE: Record<Stage, NeedArea[]> = {
  Windows: [
    {
      id: 'drafts',
      label: 'drafts and cold rooms',
      phrase: 'the cold, drafty rooms',
      pattern: /\b(drafts?|drafty|cold|freezing|chilly|hot|warm|comfort\w*|space heater)\b/,
    },
    {
      id: 'noise',
      label: 'outside noise',
      phrase: 'the outside noise',
      pattern: /\b(noise|noisy|loud|quiet\w*|traffic|trucks?|road|street noise)\b/,
    },
    {
      id: 'bills',
      label: 'energy bills',
      phrase: 'the energy bills',
      pattern: /\b(energy|bills?|heating costs?|utility|utilities|electric)\b/,
    },
    {
      id: 'condition',
      label: 'fogging, leaks and rot',
      phrase: 'the failing windows',
      pattern: /\b(fog\w*|condensation|sweat\w*|seals?|rot\w*|mold|mould|stuck|wont open|leak\w*)\b/,
    },
  ],
  HVAC: [
    {
      id: 'age',
      label: 'system age',
      pattern: /\b(how old|age of|years old|original (system|unit|furnace)|when was it (installed|put in))\b/,
    },
    {
      id: 'comfort',
      label: 'comfort and hot or cold rooms',
      phrase: 'the hot and cold rooms',
      pattern: /\b(comfort\w*|hot|cold|uneven|upstairs|humid\w*|drafts?|temperature)\b/,
    },
    {
      id: 'bills',
      label: 'energy bills',
      phrase: 'the energy bills',
      pattern: /\b(bills?|energy|utility|utilities|electric|gas bill|costs? to run)\b/,
    },
    {
      id: 'reliability',
      label: 'repairs and breakdowns',
      phrase: 'the breakdown',
      pattern:
        /\b(repairs?|broke|breaks? down|service calls?|noise|noisy|loud|capacitor|last (guy|tech\w*) (found|said)|quit|died|stopped working|not working|won t (start|turn on|kick on))\b/,
    },
  ],
  Roofing: [
    {
      id: 'leaks',
      label: 'leaks and water damage',
      phrase: 'the leak',
      pattern: /\b(leak\w*|stains?|drip\w*|water|ceiling|attic|moisture)\b/,
    },
    {
      id: 'storm',
      label: 'storm damage',
      phrase: 'the storm damage',
      pattern: /\b(storm\w*|wind\w*|hail|tree|missing shingles|blew off)\b/,
    },
    {
      id: 'insurance',
      label: 'insurance',
      phrase: 'the insurance claim',
      pattern: /\b(insurance|claim|adjuster|deductible)\b/,
    },
    {
      id: 'age',
      label: 'roof age',
      pattern: /\b(how old|roof s age|age of|years old|original roof|when was it (put on|replaced))\b/,
    },
  ],
  Flooring: [
    {
      id: 'lifestyle',
      label: 'how the household lives on it',
      phrase: 'the wear on the floors',
      pattern:
        /\b(kids?|children|toddler|baby|daughter|son|pets?|dogs?|cats?|claws|scratch\w*|spills?|who s using|whos using|day to day)\b/,
    },
    {
      id: 'rooms',
      label: 'how each room is used',
      pattern: /\b(rooms?|living room|hall\w*|kitchen|bedroom|basement|space|use the|using the)\b/,
    },
    {
      id: 'style',
      label: 'look and style',
      pattern: /\b(look\w*|style|colou?rs?|oak|wood|grey|gray|tone|finish|picture)\b/,
    },
    {
      id: 'feel',
      label: 'feel and upkeep',
      pattern: /\b(feel|underfoot|soft|warm|quiet|clean\w*|maintenance|durab\w*)\b/,
    },
  ],
  General: [
    {
      id: 'use',
      label: 'how they use the space',
      pattern: /\b(use|using|day to day|grill\w*|entertain\w*|kids?|grandkids|family|pets?)\b/,
    },
    {
      id: 'problem',
      label: 'the problem to solve',
      phrase: 'the damage',
      pattern: /\b(problem|trouble|issue|broken|wobbl\w*|soft|rot\w*|leak\w*|damp|overflow\w*|safe\w*)\b/,
    },
    {
      id: 'outcome',
      label: 'the outcome they want',
      pattern: /\b(picture|look like|finished|ideal|dream|want it to|hoping for)\b/,
    },
  ],
};

const byStage = new Map<string, NeedArea[]>();

export function needAreas(stage: string): NeedArea[] {
  const trade = (TRADE as Record<string, NeedArea[] | undefined>)[stage] ?? TRADE.General;
  const key = trade === TRADE.General ? 'General' : stage;
  let areas = byStage.get(key);
  if (!areas) {
    areas = [...UNIVERSAL, ...trade].map((a) => ({ ...a, pattern: looseContractions(a.pattern) }));
    byStage.set(key, areas);
  }
  return areas;
}

export const UNIVERSAL_DEPTH_AREAS = new Set(['budget', 'horizon', 'timeline', 'decision']);

/** Words about the product itself, which say nothing about the homeowner when repeated. */
export const TRADE_STAPLES = new Set([
  'window',
  'roof',
  'floor',
  'flooring',
  'system',
  'unit',
  'deck',
  'gutter',
  'shingle',
  'install',
  'installation',
  'price',
  'option',
  'warranty',
  'product',
  'quote',
  'company',
  'thousand',
  'hundred',
]);
