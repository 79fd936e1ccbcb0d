import type { AppContext } from '../context';
import type { JobDefinition } from './queue';

/** Every durable job kind this app runs. Each domain contributes its definitions here. */
export function jobDefinitions(_ctx: AppContext): JobDefinition[] {
  return [];
}
