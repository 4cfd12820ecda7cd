import type { Knex } from 'knex';
import type { Page, PageRequest } from '../core/pagination.js';

/**
 * Applies newest-first keyset pagination on (created_at, id) to `query` and maps the rows.
 * Fetches one extra row to know whether a next page exists; never uses OFFSET.
 */
export async function keysetPage<Row extends { created_at: Date; id: string }, T>(
  query: Knex.QueryBuilder,
  page: PageRequest,
  map: (row: Row) => T,
  alias = '',
): Promise<Page<T>> {
  const col = (c: string) => (alias ? `${alias}.${c}` : c);
  if (page.cursor) {
    query.whereRaw(`(${col('created_at')}, ${col('id')}) < (?::timestamptz, ?::uuid)`, [page.cursor.createdAt, page.cursor.id]);
  }
  const rows = (await query.orderBy([{ column: col('created_at'), order: 'desc' }, { column: col('id'), order: 'desc' }]).limit(page.limit + 1)) as Row[];
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  const next = rows.length > page.limit && last ? { createdAt: last.created_at.toISOString(), id: last.id } : undefined;
  return { items: items.map(map), next };
}
