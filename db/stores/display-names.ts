import type { Knex } from 'knex';

/**
 * The display names of the given user ids (deactivated users included), so a response that names a
 * person carries the name beside the id for every role, not only an ADMIN (docs/api.md, "People by name").
 */
export async function displayNames(db: Knex, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows: { id: string; name: string }[] = await db('users').select('id', 'name').whereIn('id', wanted);
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Adds `as` (the display name) beside each item's person id `field` (null when the id is null or unknown). */
export async function withDisplayNames<T, K extends keyof T & string, N extends string>(
  db: Knex,
  items: T[],
  field: K,
  as: N,
): Promise<(T & Record<N, string | null>)[]> {
  const names = await displayNames(
    db,
    items.map((item) => item[field] as string | null),
  );
  return items.map((item) => {
    const id = item[field] as string | null;
    return { ...item, [as]: (id !== null && names.get(id)) || null } as T & Record<N, string | null>;
  });
}
