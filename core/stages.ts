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

export function personaFor(stage: string): PersonaCard | undefined {
  return isStage(stage) ? PERSONAS[stage] : undefined;
}

export function difficultyLabel(difficulty: number): string {
  return DIFFICULTY_LABELS[difficulty] ?? 'Unknown';
}
