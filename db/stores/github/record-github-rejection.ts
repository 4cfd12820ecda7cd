import type { Knex } from 'knex';
import type { GitHubRejection } from '../../../core/github/github-port.js';
import { sendSql } from '../../send-sql.js';

/** One refusal as stored (migration 015): when, what was sent, GitHub's status and message. */
const REJECTION = `jsonb_build_object('at', now(), 'request', $2::text, 'status', $3::int, 'message', $4::text)`;
const APPEND = (rejection: string) => `rejections = coalesce(rejections, '[]'::jsonb) || jsonb_build_array(${rejection})`;

const values = (key: string, rejection: GitHubRejection) => [key, rejection.request, rejection.status, rejection.message];

/** Appends GitHub's refusal to the delivery's `rejections` (a delivery already pruned records nothing). */
export async function recordDeliveryRejection(db: Knex, deliveryId: string, rejection: GitHubRejection): Promise<void> {
  await sendSql(db, `UPDATE github_deliveries SET ${APPEND(REJECTION)} WHERE delivery_id = $1`, values(deliveryId, rejection));
}

/**
 * Records GitHub's refusal of a deployment request's answer on the request (which ends its
 * reviews) and on the delivery that asked for it, in one statement.
 */
export async function recordDeploymentRejection(db: Knex, requestId: string, rejection: GitHubRejection): Promise<void> {
  await sendSql(
    db,
    `WITH refused AS (
      UPDATE deployment_requests SET rejection = ${REJECTION} WHERE id = $1 RETURNING delivery_id, rejection
    )
    UPDATE github_deliveries SET ${APPEND('refused.rejection')} FROM refused WHERE github_deliveries.delivery_id = refused.delivery_id`,
    values(requestId, rejection),
  );
}
