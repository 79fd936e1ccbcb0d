import { familyOf, type ActLabel } from '../labels';
import { FAMILIES_WITH_KINDS } from './acts-model';
import type { LogisticModel } from './logistic';

/** Where the acts of each family come from: the source that did best on held-out authors. */
export type ActSource = 'rules' | 'model' | 'either';

export interface ShippedModel extends LogisticModel {
  sources: Record<string, ActSource>;
}

/** Combines the rules' acts and the model's per family, as the shipped sources say. */
export function combineActs(
  ruleActs: ReadonlySet<ActLabel>,
  modelActs: readonly ActLabel[],
  sources: Readonly<Record<string, ActSource>>,
  strong: ReadonlySet<ActLabel> = new Set(),
): ActLabel[] {
  const families = new Set([...ruleActs, ...modelActs].map((a) => familyOf(a)));
  const out: ActLabel[] = [];
  for (const family of families) {
    const fromRules = [...ruleActs].filter((a) => familyOf(a) === family);
    const fromModel = modelActs.filter((a) => familyOf(a) === family);
    const source = sources[family] ?? 'rules';
    const chosen =
      source === 'rules'
        ? fromRules
        : source === 'model'
          ? fromModel
          : fromModel.length
            ? fromModel
            : fromRules;
    // A family with kinds keeps the rules' kind when both agree it is there: the rules name the kind
    // by the words that carry it.
    if (FAMILIES_WITH_KINDS.has(family) && fromRules.length && chosen.length) out.push(...fromRules);
    else out.push(...chosen);
  }
  // What a precise rule read stands, whatever the classifier thinks.
  return [...new Set([...out, ...strong])];
}
