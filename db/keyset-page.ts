import type { Knex } from 'knex';
import type { Page, PageRequest } from '../core/pagination.js';

// The cursor keeps PostgreSQL's microseconds: a JS Date keeps only milliseconds, and a cursor cut
// to the millisecond skips the rows created later within that millisecond than the page's last.
const CURSOR_TIME = `to_char(?? AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS keyset_created_at`;

/**
 * Applies newest-first keyset pagination on (created_at, id) to `query` (which selects the row's
 * columns, e.g. `select('*')`) and maps the rows. Fetches one extra row to know whether a next page
 * exists; never uses OFFSET.
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
  query.select(query.client.raw(CURSOR_TIME, [col('created_at')]));
  const rows = (await query
    .orderBy([
      { column: col('created_at'), order: 'desc' },
      { column: col('id'), order: 'desc' },
    ])
    .limit(page.limit + 1)) as (Row & { keyset_created_at: string })[];
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  const next = rows.length > page.limit && last ? { createdAt: last.keyset_created_at, id: last.id } : undefined;
  return { items: items.map(({ keyset_created_at: _cursor, ...row }) => map(row as unknown as Row)), next };
}
