import type { Knex } from 'knex';
import { withDisplayNames } from '../db/stores/display-names.js';

/**
 * Execution and workflow responses name their owner (`owner_name` beside `owner_id`), so every
 * role that may see a record reads a name, not an id (docs/api.md, "People by name").
 */
export function withOwnerNames<T extends { owner_id: string }>(db: Knex, items: T[]) {
  return withDisplayNames(db, items, 'owner_id', 'owner_name');
}

export async function withOwnerName<T extends { owner_id: string }>(db: Knex, item: T) {
  const [named] = await withOwnerNames(db, [item]);
  return named;
}
