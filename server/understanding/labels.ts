/**
 * The labels of the shared reading, exactly as corpus/GUIDE.md defines them: what an utterance
 * does (acts, `name` or `name:kind`) and what it is about (topics). The corpus, the rules, the
 * classifier and the evaluation all use these lists.
 */

export const OBJECTION_KINDS = [
  'price',
  'trust',
  'timing',
  'decision',
  'product',
  'competitor',
  'disruption',
  'need',
] as const;
export type ObjectionLabelKind = (typeof OBJECTION_KINDS)[number];

export const PRESSURE_KINDS = [
  'deadline',
  'scarcity',
  'fear',
  'social',
  'guilt',
  'push',
  'discount_now',
] as const;
export type PressureKind = (typeof PRESSURE_KINDS)[number];

export const EMPATHY_KINDS = ['feeling', 'validate', 'sympathy', 'shared', 'care'] as const;
export type EmpathyKind = (typeof EMPATHY_KINDS)[number];

export const ACT_LABELS = [
  'question:open',
  'question:closed',
  'question:tag',
  'proposal:firm',
  'proposal:hedged',
  'proposal:assumed',
  'proposal:counter',
  'trial_close',
  'check',
  'confirmation',
  'agreement',
  'decline',
  'defer',
  'answer',
  'buying_signal',
  ...OBJECTION_KINDS.map((k) => `objection:${k}` as const),
  ...PRESSURE_KINDS.map((k) => `pressure:${k}` as const),
  'greeting',
  'goodbye',
  'thanks',
  'small_talk',
  ...EMPATHY_KINDS.map((k) => `empathy:${k}` as const),
  'argue',
  'abuse',
  'pitch',
  'options',
  'recommendation',
  'price',
  'offer',
  'request',
] as const;
export type ActLabel = (typeof ACT_LABELS)[number];

/** An act's family: "question:open" -> "question". */
export function familyOf(label: string): string {
  const at = label.indexOf(':');
  return at < 0 ? label : label.slice(0, at);
}

export const ACT_FAMILIES: readonly string[] = [...new Set(ACT_LABELS.map(familyOf))];

export const CORPUS_TOPICS = [
  'problem',
  'history',
  'home',
  'budget',
  'price',
  'financing',
  'timeline',
  'decision',
  'quotes',
  'priorities',
  'product',
  'process',
  'warranty',
  'insurance',
  'schedule',
  'life',
  'company',
] as const;
export type CorpusTopic = (typeof CORPUS_TOPICS)[number];

export function isActLabel(value: string): value is ActLabel {
  return (ACT_LABELS as readonly string[]).includes(value);
}
