import type { ExecutionStatus, Verdict } from '../executions/execution.js';

/** What release admission looks at in one upstream stage. */
export interface UpstreamFacts {
  /** The stage id (or, for an execution outside any workflow, its execution id): reasons name it. */
  stage_id: string;
  status: ExecutionStatus | null;
  verdict: Verdict | null;
  /** It submitted a review with `approved_for_release: true`. */
  approved: boolean;
  /** false when its certificates do not verify; null when that is not known here. */
  certificate_valid: boolean | null;
}

/**
 * Reviewed-release admission (docs/workflows.md, "Workflows: reviewed releases"): a release stage may start only when every
 * upstream stage completed, compliant, approved the release and its certificates verify.
 * Returns why not, e.g. `not_approved:review`; empty when admitted. A release with no upstream
 * at all is never admitted.
 */
export function releaseAdmissionReasons(upstreams: readonly UpstreamFacts[]): string[] {
  if (upstreams.length === 0) return ['no_upstream_review'];
  return upstreams.flatMap((u) => {
    if (u.status !== 'completed') return [`not_completed:${u.stage_id}`];
    const reasons: string[] = [];
    if (u.verdict !== 'compliant') reasons.push(`non_compliant:${u.stage_id}`);
    if (!u.approved) reasons.push(`not_approved:${u.stage_id}`);
    if (u.certificate_valid === false) reasons.push(`certificate_invalid:${u.stage_id}`);
    return reasons;
  });
}
