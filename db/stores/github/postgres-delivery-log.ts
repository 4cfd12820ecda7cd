import type { Knex } from 'knex';
import type { DeliveryCursor, DeliveryLog, DeliveryRecord } from '../../../core/github/delivery-log.js';
import { sendSql } from '../../send-sql.js';
import type { GitHubDeliveryRow } from '../../tables.js';

/** How the job's end is written: the result, the attempt's error, its timings (migration 033). */
const FINISH = {
  name: 'github_delivery_finish',
  text: `UPDATE github_deliveries SET result = $2, error = $3, attempts = greatest(attempts, $4), started_at = $5, finished_at = now()
  WHERE delivery_id = $1`,
};

/** The outcome shown: the claim's verdict, else how the job ended, else queued (core/github/delivery-log.ts). */
const OUTCOME = `CASE WHEN d.outcome = 'ignored' THEN 'ignored' ELSE coalesce(d.result, 'queued') END`;
const MICROS = `to_char(d.received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

interface ListedRow {
  delivery_id: string;
  event: string;
  action: string | null;
  repo_root: string | null;
  installation_id: string | null;
  shown: DeliveryRecord['outcome'];
  reason: string | null;
  error: string | null;
  received_at: Date;
  cursor_at: string;
  started_at: Date | null;
  finished_at: Date | null;
  attempts: number;
  duplicates: number;
  last_duplicate_at: Date | null;
  recovery_redeliveries: number | null;
  rejections: GitHubDeliveryRow['rejections'];
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function toRecord(row: ListedRow): DeliveryRecord {
  const finishedAfterStart = row.started_at && row.finished_at && row.finished_at >= row.started_at;
  return {
    delivery_id: row.delivery_id,
    event: row.event,
    action: row.action,
    repo_root: row.repo_root,
    installation_id: row.installation_id === null ? null : Number(row.installation_id),
    outcome: row.shown,
    // Ignored: why; failed: the last attempt's error; queued after a failed attempt: why it is retried.
    reason: row.shown === 'ignored' ? row.reason : row.shown === 'processed' ? null : row.error,
    received_at: row.received_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    duration_ms: finishedAfterStart ? row.finished_at!.getTime() - row.started_at!.getTime() : null,
    attempts: row.attempts,
    duplicates: row.duplicates,
    last_duplicate_at: iso(row.last_duplicate_at),
    recovery_redeliveries: row.recovery_redeliveries ?? 0,
    rejections: row.rejections ?? [],
  };
}

/** The deliveries' log on PostgreSQL: the job's outcomes written, the ADMIN's list read. */
export function createDeliveryLog(db: Knex): DeliveryLog {
  return {
    async recordProcessed(deliveryId, startedAt, attempt) {
      await sendSql(db, FINISH, [deliveryId, 'processed', null, attempt, startedAt]);
    },

    async recordFailure(deliveryId, startedAt, attempt, reason, final) {
      await sendSql(db, FINISH, [deliveryId, final ? 'failed' : null, reason, attempt, startedAt]);
    },

    async list(filter, page) {
      const values: unknown[] = [];
      const where: string[] = [];
      const add = (value: unknown) => `$${values.push(value)}`;
      if (filter.outcome === 'duplicate') where.push('d.duplicates > 0');
      else if (filter.outcome) where.push(`${OUTCOME} = ${add(filter.outcome)}`);
      if (filter.repo_root) where.push(`d.repo_root = ${add(filter.repo_root)}`);
      if (page.after)
        where.push(`(d.received_at, d.delivery_id) < (${add(page.after.receivedAt)}::timestamptz, ${add(page.after.deliveryId)})`);
      const rows = await sendSql<ListedRow>(
        db,
        `SELECT d.delivery_id, d.event, d.action, d.repo_root, d.installation_id, ${OUTCOME} AS shown, d.reason, d.error,
          d.received_at, ${MICROS} AS cursor_at, d.started_at, d.finished_at, d.attempts, d.duplicates, d.last_duplicate_at,
          r.attempts AS recovery_redeliveries, d.rejections
        FROM github_deliveries d LEFT JOIN github_redeliveries r ON r.delivery_guid = d.delivery_id
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY d.received_at DESC, d.delivery_id DESC LIMIT ${add(page.limit + 1)}`,
        values,
      );
      const items = rows.slice(0, page.limit);
      const last = items[items.length - 1];
      const next: DeliveryCursor | undefined =
        rows.length > page.limit && last ? { receivedAt: last.cursor_at, deliveryId: last.delivery_id } : undefined;
      return { items: items.map(toRecord), next };
    },
  };
}
