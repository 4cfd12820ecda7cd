import type { CertificateCheck } from '../certificates/check-certificate.js';
import type { PublicJwk } from '../certificates/types.js';
import type { Policy } from '../policies/policy.js';
import { buildAttestation } from './build-attestation.js';
import type { Execution } from './execution.js';

export interface AuditPackageInput {
  packageId: string;
  generatedAt: string;
  execution: Execution;
  /** The policy version the execution ran under (null if it can no longer be found). */
  policy: Policy | null;
  /** The certificates re-verified just now, in the order of `execution.certificates`. */
  checks: CertificateCheck[];
  publicKeys: PublicJwk[];
}

/**
 * The audit package of one execution (docs/workflows.md, "Governed agent executions": audit export), unsigned: the caller adds the signed
 * manifest. `tool_calls` sit beside `certificates` so an offline verifier can hold each
 * certificate against the entry it certifies.
 */
export function buildAuditPackage({ packageId, generatedAt, execution, policy, checks, publicKeys }: AuditPackageInput) {
  const { tool_calls, certificates, artifacts, ...summary } = execution;
  return {
    package_id: packageId,
    generated_at: generatedAt,
    compliance_regime: execution.policy.name,
    execution: summary,
    tool_calls,
    certificates: certificates.map((certificate, i) => ({
      ...certificate,
      verified: checks[i]?.verified ?? false,
      reason: checks[i]?.verified ? null : (checks[i]?.reason ?? 'unverified'),
    })),
    artifacts,
    policy: { ...(policy ?? { name: execution.policy.name, version: execution.policy.version }), digest: execution.policy.digest },
    attestation: buildAttestation(execution, checks, policy?.retention_days ?? null),
    public_keys: publicKeys,
  };
}
