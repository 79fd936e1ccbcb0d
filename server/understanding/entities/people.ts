import type { EntityContext, PersonEntity } from './types';

export function findPeople(_text: string, _ctx: EntityContext = {}): PersonEntity[] {
  return [];
}
