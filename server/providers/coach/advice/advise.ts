import type { SectionKey } from '../../../../core/coaching-format';
import type { CallFacts } from '../../../understanding/call-facts';
import type { Analysis } from '../rubric/detectors';
import { findingFor } from '../rubric/summary';
import type { CallView } from '../rubric/view';
import { closingAdvice } from './closing';
import { adviceContext, type Advise } from './context';
import { empathyAdvice } from './empathy';
import { followUpAdvice } from './follow-up';
import { needsAdvice } from './needs';
import { objectionsAdvice } from './objections';
import { optionsAdvice } from './options';
import type { Rendered } from './template';

const BY_SECTION: Record<SectionKey, Advise> = {
  empathy: empathyAdvice,
  needsAnalysis: needsAdvice,
  exploringOptions: optionsAdvice,
  objectionHandling: objectionsAdvice,
  closing: closingAdvice,
  followUp: followUpAdvice,
};

/**
 * "Try this next time" for one section: a line written for the situation the detectors found,
 * filled only with values grounded in the call facts (each carried with its evidence).
 */
export function adviceFor(
  key: SectionKey,
  a: Analysis,
  facts: CallFacts,
  view: CallView,
  score: number,
  stage: string,
): Rendered {
  return BY_SECTION[key](adviceContext(a, findingFor(a, key), facts, view, score, stage));
}
