import type { Knex } from 'knex';
import type { DeliveryClaim } from '../../../core/github/github-app-store.js';
import { enqueueMany, type JobPayloads } from '../../job-queue.js';
import { sendSql } from '../../send-sql.js';

/** Claims deliveries by id; a redelivery (or a repeat within the batch) claims nothing. */
const CLAIM = {
  name: 'github_claim_deliveries',
  text: `
INSERT INTO github_deliveries (delivery_id, event, action, repo_root, installation_id, outcome, reason)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[])
ON CONFLICT (delivery_id) DO NOTHING
RETURNING delivery_id, received_at`,
};

/** Counts the receipts that claimed nothing on their delivery's row (migration 033): sent only when a batch holds one. */
const COUNT_DUPLICATES = {
  name: 'github_count_duplicate_deliveries',
  text: `
UPDATE github_deliveries SET duplicates = duplicates + repeated.n, last_duplicate_at = now()
FROM (SELECT id, count(*)::int AS n FROM unnest($1::text[]) AS id GROUP BY id) AS repeated
WHERE github_deliveries.delivery_id = repeated.id`,
};

/**
 * Claims a batch of deliveries and queues the work of each claimed one whose outcome is queued,
 * in one transaction. Answers, per claim in order, whether it was claimed (false: already
 * received, nothing done but counting the duplicate on the delivery's row).
 */
export async function claimDeliveries(db: Knex, claims: DeliveryClaim[]): Promise<boolean[]> {
  return db.transaction(async (trx) => {
    const column = <K extends keyof DeliveryClaim>(key: K) => claims.map((claim) => claim[key]);
    const rows = await sendSql<{ delivery_id: string; received_at: Date }>(trx, CLAIM, [
      column('delivery_id'),
      column('event'),
      column('action'),
      column('repo_root'),
      column('installation_id'),
      claims.map(({ outcome }) => outcome.status),
      claims.map(({ outcome }) => (outcome.status === 'ignored' ? outcome.reason : null)),
    ]);
    const receivedAt = new Map(rows.map((row) => [row.delivery_id, row.received_at.toISOString()]));
    const claimed = claims.map(() => false);
    const work: JobPayloads['github_delivery'][] = [];
    claims.forEach((claim, i) => {
      const at = receivedAt.get(claim.delivery_id);
      if (at === undefined) return;
      receivedAt.delete(claim.delivery_id); // the same id again in this batch is a redelivery
      claimed[i] = true;
      if (claim.outcome.status === 'queued') work.push({ delivery_id: claim.delivery_id, received_at: at, intent: claim.outcome.intent });
    });
    await enqueueMany(trx, 'github_delivery', work);
    const duplicates = claims
      .filter((_, i) => !claimed[i])
      .map((claim) => claim.delivery_id)
      .sort();
    if (duplicates.length > 0) await sendSql(trx, COUNT_DUPLICATES, [duplicates]);
    return claimed;
  });
}
