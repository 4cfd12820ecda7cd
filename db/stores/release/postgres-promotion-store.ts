import type { Knex } from 'knex';
import { ConflictError } from '../../../core/errors.js';
import type { PromotionStore } from '../../../core/release/release-store.js';
import { keysetPage } from '../../keyset-page.js';
import type { PromotionRow, SnapshotRow } from '../../tables.js';
import { toPromotion } from './release-rows.js';

export function createPromotionStore(db: Knex): PromotionStore {
  return {
    async findPromotion(snapshotId, status) {
      const row = await db<PromotionRow>('promotions').where({ snapshot_id: snapshotId, status }).first();
      return row ? toPromotion(row) : null;
    },
    async recordPromotion(p, { requireLatest }) {
      return db.transaction(async (trx) => {
        const snapshot = await trx<SnapshotRow>('snapshots').where({ id: p.snapshot_id }).forUpdate().first();
        if (!snapshot || snapshot.status !== p.from_status) {
          throw new ConflictError(`The snapshot changed meanwhile: it is ${snapshot?.status ?? 'gone'}, not ${p.from_status}.`);
        }
        if (requireLatest) {
          const latest = await trx<SnapshotRow>('snapshots')
            .where({ repo_root: snapshot.repo_root, commit_sha: snapshot.commit_sha })
            .orderBy('seen_at', 'desc')
            .first('id');
          if (latest?.id !== snapshot.id)
            throw new ConflictError("The snapshot is no longer the commit's latest: its evidence changed meanwhile.");
        }
        const [row] = await trx<PromotionRow>('promotions')
          .insert({
            snapshot_id: p.snapshot_id,
            repo_root: p.repo_root,
            commit_sha: p.commit_sha,
            from_status: p.from_status,
            status: p.status,
            release_label: p.release_label,
            metadata: p.metadata,
            promoted_by: p.promoted_by,
            attestation: p.attestation,
          })
          .returning('*');
        const attested = p.status === 'attested' ? { attested_at: row.created_at } : {};
        const label = p.release_label !== null ? { release_label: p.release_label } : {};
        await trx('snapshots')
          .where({ id: p.snapshot_id })
          .update({ status: p.status, ...attested, ...label });
        return toPromotion(row);
      });
    },
    listPromotions(filter, page) {
      const query = db<PromotionRow>('promotions').select('*');
      if (filter.repo_root) query.where({ repo_root: filter.repo_root });
      if (filter.commit_sha) query.where({ commit_sha: filter.commit_sha });
      if (filter.repo_roots) query.whereIn('repo_root', filter.repo_roots);
      return keysetPage(query, page, toPromotion);
    },
  };
}
