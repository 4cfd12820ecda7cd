import type { CertificateCheck } from '../certificates/check-certificate.js';
import type { Execution } from './execution.js';

export interface Attestation {
  regime: string;
  retention_days: number | null;
  /** One proof per allowed tool call (`action_safe:tool_call:<seq>`) and the run's own (`final_output_safe:execution`). */
  proofs_required: string[];
  proofs_satisfied: string[];
  proofs_missing: string[];
  certificate_count: number;
  /** Every property the verified certificates establish. */
  verified_properties: string[];
  /** Completed, verdict compliant, every required proof present and every certificate verified. */
  compliant: boolean;
}

const FINAL_PROOF = 'final_output_safe:execution';

/**
 * What an auditor can rely on for one execution (docs/workflows.md, "Governed agent executions": audit export), from its certificates as they
 * were just re-verified (`checks[i]` belongs to `execution.certificates[i]`).
 */
export function buildAttestation(execution: Execution, checks: CertificateCheck[], retentionDays: number | null): Attestation {
  const verified = execution.certificates.filter((_, i) => checks[i]?.verified);
  const verifiedIds = new Set(verified.map((c) => c.id));
  const allowed = execution.tool_calls.filter((call) => call.verdict === 'allowed');
  // A cancelled run is never certified, so it owes (and can show) no final proof.
  const required = [
    ...allowed.map((call) => `action_safe:tool_call:${call.seq}`),
    ...(execution.status === 'cancelled' ? [] : [FINAL_PROOF]),
  ];
  const satisfied = [
    ...allowed
      .filter((call) => call.certificate_id !== null && verifiedIds.has(call.certificate_id))
      .map((call) => `action_safe:tool_call:${call.seq}`),
    ...(verified.some((c) => c.kind === 'execution') && execution.status !== 'cancelled' ? [FINAL_PROOF] : []),
  ];
  const missing = required.filter((proof) => !satisfied.includes(proof));
  return {
    regime: execution.policy.name,
    retention_days: retentionDays,
    proofs_required: required,
    proofs_satisfied: satisfied,
    proofs_missing: missing,
    certificate_count: execution.certificates.length,
    verified_properties: [...new Set(verified.flatMap((c) => c.verified_properties))].sort(),
    compliant:
      execution.status === 'completed' &&
      execution.verdict === 'compliant' &&
      missing.length === 0 &&
      checks.length === execution.certificates.length &&
      checks.every((c) => c.verified),
  };
}
