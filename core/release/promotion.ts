import type { DsseEnvelope } from '../certificates/types.js';
import type { Decision } from './evaluate-decision.js';
import type { SnapshotStatus } from './snapshot.js';

/** Every status but `candidate`, which only a decision creates. */
export const PROMOTION_TARGETS = ['attested', 'promoted', 'rejected', 'revoked'] as const satisfies readonly SnapshotStatus[];
export type PromotionTarget = (typeof PROMOTION_TARGETS)[number];

/** The statuses each target may be reached from (docs/release-gate.md, "Release gate": promotions). */
const ALLOWED_FROM: Record<PromotionTarget, readonly SnapshotStatus[]> = {
  attested: ['candidate'],
  promoted: ['attested'],
  rejected: ['candidate'],
  revoked: ['attested', 'promoted'],
};

/** Why `from` -> `to` is not a transition, or null when it is one. */
export function transitionRefusal(from: SnapshotStatus, to: PromotionTarget): string | null {
  if (ALLOWED_FROM[to].includes(from)) return null;
  return `A ${from} snapshot cannot become ${to}: ${to} is reachable only from ${ALLOWED_FROM[to].join(' or ')}.`;
}

/**
 * The targets a snapshot may move to from its status and decision: the transitions above, and
 * attested only for SHIP. What the decision's `allowed_promotions` lists and promoting checks
 * (separation of duties, which depends on who asks, is checked only when promoting).
 */
export function allowedPromotions(from: SnapshotStatus, decision: Decision): PromotionTarget[] {
  return PROMOTION_TARGETS.filter((to) => ALLOWED_FROM[to].includes(from) && (to !== 'attested' || decision === 'SHIP'));
}

export interface PromotionRequest {
  snapshot_id: string;
  target_status: PromotionTarget;
  release_label: string | null;
  metadata: Record<string, unknown>;
}

/** One recorded status change of a snapshot, with its signed attestation. */
export interface Promotion {
  id: string;
  snapshot_id: string;
  repo_root: string;
  commit_sha: string;
  from_status: SnapshotStatus;
  status: PromotionTarget;
  release_label: string | null;
  metadata: Record<string, unknown>;
  promoted_by: string;
  created_at: string;
  attestation: DsseEnvelope;
}

export type NewPromotion = Omit<Promotion, 'id' | 'created_at'>;
