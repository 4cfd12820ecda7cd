import type { Knex } from 'knex';

/**
 * The display names of the given user ids (deactivated users included), so a response that names a
 * person carries the name beside the id for every role, not only an ADMIN (docs/api.md, "People by name").
 */
export async function displayNames(db: Knex, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows: { id: string; name: string }[] = await db('users').select('id', 'name').whereIn('id', wanted);
  return new Map(rows.map((row) => [row.id, row.name]));
}
