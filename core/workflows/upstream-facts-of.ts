import { reviewsApprove } from './reviews-approve.js';
import type { Verifier } from '../certificates/types.js';
import { verifyCertificateChain } from '../certificates/verify-certificate-chain.js';
import type { Execution } from '../executions/execution.js';
import type { UpstreamFacts } from './release-admission.js';

/**
 * Admission facts of an upstream stage from its full execution record: its certificates are
 * re-verified now (signature, chain, tool calls), and a finished run without its execution
 * certificate does not verify.
 */
export function upstreamFactsOf(stageId: string, execution: Execution | null, verifier: Verifier): UpstreamFacts {
  if (!execution) return { stage_id: stageId, status: null, verdict: null, approved: false, certificate_valid: null };
  const checks = verifyCertificateChain(execution.certificates, verifier, execution.tool_calls);
  return {
    stage_id: stageId,
    status: execution.status,
    verdict: execution.verdict,
    approved: reviewsApprove(execution.artifacts),
    certificate_valid: execution.certificates.some((c) => c.kind === 'execution') && checks.every((c) => c.verified),
  };
}
