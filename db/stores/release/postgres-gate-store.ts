import type { Knex } from 'knex';
import { sendSql } from '../../send-sql.js';
import type { GateStore } from '../../../core/release/release-store.js';
import type { GateVersionRow } from '../../tables.js';
import { toGateVersion } from './release-rows.js';

/** Gate versions: append-only per repository; a save with the latest digest records nothing. */
export function createGateStore(db: Knex): GateStore {
  return {
    async latestGate(repoRoot) {
      const row = await db<GateVersionRow>('gate_versions').where({ repo_root: repoRoot }).orderBy('version', 'desc').first();
      return row ? toGateVersion(row) : null;
    },
    async saveGate(repoRoot, gate, digest, source, createdBy) {
      return db.transaction(async (trx) => {
        // Versions of one repository are numbered in order; serialise writers of that repository.
        await sendSql(trx, 'SELECT pg_advisory_xact_lock(hashtext($1))', [`gate:${repoRoot}`]);
        const latest = await trx<GateVersionRow>('gate_versions').where({ repo_root: repoRoot }).orderBy('version', 'desc').first();
        if (latest?.digest === digest) return { version: toGateVersion(latest), created: false };
        const [row] = await trx<GateVersionRow>('gate_versions')
          .insert({ repo_root: repoRoot, version: (latest?.version ?? 0) + 1, digest, gate, source, created_by: createdBy })
          .returning('*');
        return { version: toGateVersion(row), created: true };
      });
    },
    async gateVersion(repoRoot, version) {
      const row = await db<GateVersionRow>('gate_versions').where({ repo_root: repoRoot, version }).first();
      return row ? toGateVersion(row) : null;
    },
    async gateVersions(repoRoot, before, limit) {
      const rows = await db<GateVersionRow>('gate_versions')
        .where({ repo_root: repoRoot })
        .modify((q) => (before === undefined ? q : q.andWhere('version', '<', before)))
        .orderBy('version', 'desc')
        .limit(limit);
      return rows.map(toGateVersion);
    },
  };
}
