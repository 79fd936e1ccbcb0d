/** Trade categories ("stages") and the homeowner persona for each (spec §3). */
export const STAGES = ['Windows', 'HVAC', 'Roofing', 'Flooring', 'General'] as const;
export type Stage = (typeof STAGES)[number];

export function isStage(value: unknown): value is Stage {
  return typeof value === 'string' && (STAGES as readonly string[]).includes(value);
}

export const DIFFICULTY_LABELS: Record<number, string> = {
  1: 'Easy',
  2: 'Moderate',
  3: 'Medium',
  4: 'Hard',
  5: 'Very Hard',
};

export interface PersonaCard {
  stage: Stage;
  name: string;
  difficulty: 1 | 2 | 3 | 4 | 5;
  buyerType: string;
  focus: string;
}

export const PERSONAS: Record<Stage, PersonaCard> = {
  Windows: {
    stage: 'Windows',
    name: 'Linda',
    difficulty: 3,
    buyerType: 'Value Comparison / Skeptical',
    focus: 'Differentiation & trust',
  },
  HVAC: {
    stage: 'HVAC',
    name: 'Dave',
    difficulty: 4,
    buyerType: 'Time-Pressed / Impatient',
    focus: 'Clarity under pressure',
  },
  Roofing: {
    stage: 'Roofing',
    name: 'Frank',
    difficulty: 5,
    buyerType: 'Distrusting / Hard Sell',
    focus: 'Credibility & proof',
  },
  Flooring: {
    stage: 'Flooring',
    name: 'Priya',
    difficulty: 2,
    buyerType: 'Style-Conscious / Cautious',
    focus: 'Personalization & reassurance',
  },
  General: {
    stage: 'General',
    name: 'Tom',
    difficulty: 1,
    buyerType: 'Friendly & Curious',
    focus: 'Rapport & clear communication',
  },
};

/** The five stages from easiest to hardest homeowner: how the stage picker lists them. */
export const STAGES_BY_DIFFICULTY: readonly Stage[] = [...STAGES].sort(
  (a, b) => PERSONAS[a].difficulty - PERSONAS[b].difficulty,
);

/** The next harder homeowner's stage, or null after the hardest. */
export function harderStage(stage: string): Stage | null {
  const at = STAGES_BY_DIFFICULTY.indexOf(stage as Stage);
  return at >= 0 && at < STAGES_BY_DIFFICULTY.length - 1 ? STAGES_BY_DIFFICULTY[at + 1] : null;
}

export const MAX_DIFFICULTY = 5;

export function personaFor(stage: string): PersonaCard | undefined {
  return isStage(stage) ? PERSONAS[stage] : undefined;
}

export function difficultyLabel(difficulty: number): string {
  return DIFFICULTY_LABELS[difficulty] ?? 'Unknown';
}

/** What the rep reads before the call: who opens the door, what is on offer, and a good outcome. */
export interface PersonaBrief {
  homeowner: string;
  selling: string;
  goodOutcome: string;
}

/** Written from each persona's household facts (server/providers/brain/personas.ts). */
export const PERSONA_BRIEFS: Record<Stage, PersonaBrief> = {
  Windows: {
    homeowner:
      'Linda, in a 31-year-old house with drafty single-pane windows. She already has a cheaper quote and decides with her husband Mark.',
    selling: 'Replacement windows for the living room and two bedrooms.',
    goodOutcome: 'She sees why yours are worth more and books a measurement when Mark is home.',
  },
  HVAC: {
    homeowner:
      'Dave, short on time. His 15-year-old furnace short-cycles and the upstairs never warms up; he has another quote.',
    selling: 'A furnace repair or replacement he can have soon.',
    goodOutcome: 'Clear options and prices in a few minutes, and a booked install or visit.',
  },
  Roofing: {
    homeowner:
      'Frank, who was burned by a storm chaser before. A leak over the back bedroom after the last storm; he and his wife read everything twice.',
    selling: 'A roof repair or replacement, mostly paid by insurance.',
    goodOutcome:
      'He trusts your proof (licence, insurance, references) and agrees to an inspection, in writing.',
  },
  Flooring: {
    homeowner:
      'Priya, in a 9-year-old home. The living-room carpet is stained and dated; she cares about the look, her husband Raj about durability.',
    selling: 'New flooring for the main floor that suits the modern kitchen.',
    goodOutcome: 'She feels the choice fits her style and books a visit with samples.',
  },
  General: {
    homeowner:
      'Tom, friendly and chatty, with a list of small jobs: a sticking back door, an old deck and a rattling bathroom fan.',
    selling: 'Home repairs and improvements, done in one visit or a small plan.',
    goodOutcome: 'You find what matters most to him and his wife Susan and agree the next step.',
  },
};
