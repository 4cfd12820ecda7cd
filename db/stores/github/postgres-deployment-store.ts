import type { Knex } from 'knex';
import type { DeploymentRequest, DeploymentStore } from '../../../core/github/deployment-store.js';
import { enqueueReplacing } from '../../job-queue.js';
import { keysetPage } from '../../keyset-page.js';
import { sendSql } from '../../send-sql.js';
import { recordDeploymentRejection } from './record-github-rejection.js';
import type { DeploymentRequestRow } from '../../tables.js';

function toDeploymentRequest(row: DeploymentRequestRow): DeploymentRequest {
  return {
    id: row.id,
    repo_root: row.repo_root,
    environment: row.environment,
    commit_sha: row.commit_sha,
    ref: row.ref,
    run_id: Number(row.run_id),
    deployment_id: Number(row.deployment_id),
    installation_id: Number(row.installation_id),
    state: row.state,
    decision: row.decision,
    snapshot_id: row.snapshot_id,
    timed_out: row.timed_out,
    comment: row.comment,
    requested_at: row.requested_at.toISOString(),
    answered_at: row.answered_at ? row.answered_at.toISOString() : null,
  };
}

export function createDeploymentStore(db: Knex): DeploymentStore {
  const table = () => db<DeploymentRequestRow>('deployment_requests');
  return {
    async recordRequest(intent, receivedAt, deliveryId = null) {
      const key = {
        repo_root: intent.repo_root,
        run_id: intent.run_id,
        environment: intent.environment,
        deployment_id: intent.deployment_id,
      };
      await sendSql(
        db,
        `INSERT INTO deployment_requests (repo_root, environment, commit_sha, ref, run_id, deployment_id, installation_id, requested_at, delivery_id)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (repo_root, run_id, environment, deployment_id) DO NOTHING`,
        [
          key.repo_root,
          key.environment,
          intent.commit_sha,
          intent.ref,
          key.run_id,
          key.deployment_id,
          intent.installation_id,
          receivedAt,
          deliveryId,
        ],
      );
      return toDeploymentRequest((await table().where(key).first())!);
    },

    async request(id) {
      const row = await table().where({ id }).first();
      return row ? toDeploymentRequest(row) : null;
    },

    async waitingAt(repoRoot, commitSha) {
      const rows = await table()
        .where({ repo_root: repoRoot, commit_sha: commitSha, state: 'waiting' })
        .whereNull('rejection')
        .orderBy('requested_at');
      return rows.map(toDeploymentRequest);
    },

    async orphaned(limit) {
      const rows = await table()
        .where({ state: 'waiting' })
        .whereNull('rejection')
        .whereRaw(
          `NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'github_deployment_review:' || deployment_requests.id::text)`,
        )
        .orderBy('requested_at')
        .limit(limit);
      return rows.map(toDeploymentRequest);
    },

    async scheduleReview(id, { runAt, attempt = 0 } = {}) {
      await enqueueReplacing(
        db,
        'github_deployment_review',
        { request_id: id, attempt },
        { jobKey: `github_deployment_review:${id}`, runAt },
      );
    },

    async answerOnce(id, answer, send) {
      return db.transaction(async (trx) => {
        // The row lock holds the request while GitHub is told: a second worker skips it, and a
        // failed send rolls back, leaving it waiting for the retry.
        const held = await sendSql(
          trx,
          `SELECT id FROM deployment_requests WHERE id = $1 AND state = 'waiting' AND rejection IS NULL FOR UPDATE SKIP LOCKED`,
          [id],
        );
        if (held.length === 0) return false;
        await send();
        await sendSql(
          trx,
          `UPDATE deployment_requests SET state = $1, decision = $2, snapshot_id = $3, timed_out = $4, comment = $5, answered_at = now()
          WHERE id = $6 AND state = 'waiting'`,
          [answer.state, answer.decision, answer.snapshot_id, answer.timed_out, answer.comment, id],
        );
        return true;
      });
    },

    recordRejection: (id, rejection) => recordDeploymentRejection(db, id, rejection),

    async listAnswered(filter, page) {
      // Newest answer first: the keyset runs on answered_at, named created_at for the pager.
      const answered = db<DeploymentRequestRow>('deployment_requests')
        .select('*', db.raw('answered_at AS created_at'))
        .whereNotNull('answered_at')
        .as('d');
      if (filter.repo_root) answered.where({ repo_root: filter.repo_root });
      if (filter.repo_roots) answered.whereIn('repo_root', filter.repo_roots);
      if (filter.environment) answered.whereRaw('lower(environment) = lower(?)', [filter.environment]);
      return keysetPage<DeploymentRequestRow & { created_at: Date }, DeploymentRequest>(
        db.select('d.*').from(answered),
        page,
        toDeploymentRequest,
        'd',
      );
    },
  };
}
