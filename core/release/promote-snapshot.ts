import type { Principal } from '../accounts/user.js';
import { canonicalJson } from '../canonical-json.js';
import { certifyPromotion } from '../certificates/promotion-statement.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { decideRelease } from './decide-release.js';
import { DEFAULT_GATE } from './gate.js';
import { allowedPromotions, transitionRefusal, type Promotion, type PromotionRequest } from './promotion.js';
import type { ReleasePorts } from './release-ports.js';
import type { Snapshot } from './snapshot.js';

function sameRequest(existing: Promotion, request: PromotionRequest): boolean {
  return existing.release_label === request.release_label && canonicalJson(existing.metadata) === canonicalJson(request.metadata);
}

/** The gate the snapshot was judged by decides whether its approver must be someone else. */
async function assertSeparationOfDuties(
  ports: ReleasePorts,
  snapshot: Snapshot,
  request: PromotionRequest,
  caller: Principal,
): Promise<void> {
  if (request.target_status !== 'attested' && request.target_status !== 'promoted') return;
  const { version } = snapshot.provenance.gate;
  const gate = version === 0 ? DEFAULT_GATE : ((await ports.store.gateVersion(snapshot.repo_root, version))?.gate ?? DEFAULT_GATE);
  if (gate.separation_of_duties && snapshot.provenance.workflows.some((w) => w.owner_id === caller.user.id)) {
    throw new ForbiddenError("Separation of duties: you own a workflow in this snapshot's evidence, so another approver must promote it.");
  }
}

/** Only a SHIP snapshot that is still the commit's latest (evaluated now) can be attested. */
async function assertAttestable(ports: ReleasePorts, snapshot: Snapshot, now: Date): Promise<void> {
  if (!allowedPromotions(snapshot.status, snapshot.decision).includes('attested')) {
    throw new ConflictError(
      `Only a SHIP snapshot can be attested; this one is NO_SHIP (${snapshot.blockers.map((b) => b.code).join(', ')}).`,
    );
  }
  const { snapshot: latest } = await decideRelease(ports, snapshot.repo_root, snapshot.commit_sha, now);
  if (latest.id !== snapshot.id) {
    throw new ConflictError(
      `The snapshot is stale: the commit's evidence changed and its latest snapshot is ${latest.id} (${latest.decision}). Promote that one instead.`,
    );
  }
}

/**
 * Moves a snapshot along candidate -> attested -> promoted (or rejected / revoked), recording a
 * signed SLSA verification summary. Repeating the same request returns the recorded promotion.
 */
export async function promoteSnapshot(
  ports: ReleasePorts,
  request: PromotionRequest,
  caller: Principal,
  now = new Date(),
): Promise<{ promotion: Promotion; created: boolean }> {
  const snapshot = await ports.store.getSnapshot(request.snapshot_id);
  if (!snapshot) throw new NotFoundError('Snapshot', request.snapshot_id);
  const target = request.target_status;
  const existing = await ports.store.findPromotion(snapshot.id, target);
  if (existing) {
    if (sameRequest(existing, request)) return { promotion: existing, created: false };
    throw new ConflictError(`The snapshot is already ${target} (promotion ${existing.id}) with another release_label or metadata.`);
  }
  const refusal = transitionRefusal(snapshot.status, target);
  if (refusal) throw new ConflictError(refusal);
  await assertSeparationOfDuties(ports, snapshot, request, caller);
  if (target === 'attested') await assertAttestable(ports, snapshot, now);
  const certificate = certifyPromotion(
    ports.signer,
    {
      repoRoot: snapshot.repo_root,
      commitSha: snapshot.commit_sha,
      snapshotId: snapshot.id,
      evidenceDigest: snapshot.evidence_digest,
      gateDigest: snapshot.provenance.gate.digest,
      gateUri: ports.uris.gate(snapshot.repo_root, snapshot.provenance.gate.version),
      status: target,
      releaseLabel: request.release_label,
      timeVerified: now.toISOString(),
      verificationResult: target === 'rejected' || target === 'revoked' ? 'FAILED' : 'PASSED',
      countedApprovals: snapshot.provenance.authorship?.approvals
        .filter((a) => a.counted)
        .map((a) => ({ login: a.login, commit_sha: a.commit_sha })),
      overrides: snapshot.provenance.overrides,
    },
    () => now,
  );
  try {
    const promotion = await ports.store.recordPromotion(
      {
        snapshot_id: snapshot.id,
        repo_root: snapshot.repo_root,
        commit_sha: snapshot.commit_sha,
        from_status: snapshot.status,
        status: target,
        release_label: request.release_label,
        metadata: request.metadata,
        promoted_by: caller.user.id,
        attestation: certificate.envelope,
      },
      { requireLatest: target === 'attested' },
    );
    return { promotion, created: true };
  } catch (error) {
    // The same request racing this one may have won; then it is a repeat, not a conflict.
    const raced = error instanceof ConflictError ? await ports.store.findPromotion(snapshot.id, target) : null;
    if (raced && sameRequest(raced, request)) return { promotion: raced, created: false };
    throw error;
  }
}
