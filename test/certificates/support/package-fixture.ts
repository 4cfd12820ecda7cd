import { generateKeyPairSync } from 'node:crypto';
import { createSigner } from '../../../core/certificates/create-signer.js';
import { publicJwkOf } from '../../../core/certificates/public-jwk.js';
import { signPackage } from '../../../core/certificates/sign-package.js';
import { certifiedRun, compliant, policy, type RunOutcome } from './run-fixture.js';

/** An execution audit package shaped like the compliance export, signed by its own key. */
export function signedPackage(outcome: RunOutcome = compliant) {
  const run = certifiedRun(undefined, [], undefined, outcome);
  const privateKey = generateKeyPairSync('ed25519').privateKey;
  const manifestSigner = createSigner(privateKey);
  // The run was certified with another key: the package carries both, as the service's JWK set does.
  const publicKeys = [publicJwkOf(privateKey), { ...run.jwk, status: 'retired' as const }];
  const pkg = signPackage(
    {
      package_id: '44444444-4444-4444-8444-444444444444',
      generated_at: '2024-05-01T00:01:00.000Z',
      compliance_regime: 'hipaa',
      execution: {
        id: run.executionId,
        status: 'completed',
        verdict: outcome.verdict,
        task: 'Summarise the change — ünïcode',
        cost_cents: 42,
        // What the execution certificate signs: the record must say the same.
        output: 'final answer',
        policy: { name: policy.name, version: policy.version, digest: policy.digest },
        upstream_execution_ids: [],
        violations: outcome.violations,
      },
      tool_calls: run.toolCalls,
      certificates: run.certificates.map((c) => ({ ...c, verified: true })),
      policy: { ...policy, retention_days: 2190 },
      attestation: {
        regime: 'hipaa',
        retention_days: 2190,
        proofs_required: 4,
        proofs_satisfied: 4,
        proofs_missing: [],
        certificate_count: 4,
        compliant: outcome.verdict === 'compliant',
      },
      public_keys: publicKeys,
    },
    manifestSigner,
  );
  return { pkg, publicKeys, run };
}
