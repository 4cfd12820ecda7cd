import type { CertificateCheck } from '../certificates/check-certificate.js';
import type { PublicJwk } from '../certificates/types.js';
import { buildAttestation } from '../executions/build-attestation.js';
import type { Execution } from '../executions/execution.js';
import type { Policy } from '../policies/policy.js';
import type { Workflow } from './workflow.js';

export interface StageEvidence {
  execution: Execution;
  /** The policy version it ran under (null if it can no longer be found). */
  policy: Policy | null;
  /** Its certificates re-verified just now, in the order of `execution.certificates`. */
  checks: CertificateCheck[];
}

export interface WorkflowPackageInput {
  packageId: string;
  generatedAt: string;
  workflow: Workflow;
  /** The execution of each stage that has one, by stage id. */
  stages: ReadonlyMap<string, StageEvidence>;
  publicKeys: PublicJwk[];
}

/** The execution certificate's digest: what the next stage's certificate names as a material. */
function finalCertificateDigest(execution: Execution | undefined): string | null {
  return execution?.certificates.findLast((c) => c.kind === 'execution')?.digest ?? null;
}

/**
 * The audit package of a workflow (docs/workflows.md, "Workflows: reviewed releases"), unsigned: the caller adds the signed
 * manifest. Each stage carries its full execution beside its tool calls, so an offline verifier
 * can check every certificate chain; `lineage` says which upstream executions each stage was
 * bound to, by the digests their certificates have.
 */
export function buildWorkflowPackage({ packageId, generatedAt, workflow, stages, publicKeys }: WorkflowPackageInput) {
  const executionOf = (stageId: string) => stages.get(stageId)?.execution;
  return {
    package_id: packageId,
    generated_at: generatedAt,
    workflow,
    stages: workflow.stages.map((stage) => {
      const evidence = stages.get(stage.id);
      if (!evidence) return { stage_id: stage.id, status: stage.status, execution: null, attestation: null };
      const { execution, checks, policy } = evidence;
      return {
        stage_id: stage.id,
        status: stage.status,
        execution: {
          ...execution,
          certificates: execution.certificates.map((certificate, i) => ({
            ...certificate,
            verified: checks[i]?.verified ?? false,
            reason: checks[i]?.verified ? null : (checks[i]?.reason ?? 'unverified'),
          })),
        },
        attestation: buildAttestation(execution, checks, policy?.retention_days ?? null),
      };
    }),
    lineage: workflow.stages.flatMap((stage) => {
      const execution = executionOf(stage.id);
      if (!execution) return [];
      return [
        {
          stage_id: stage.id,
          execution_id: execution.id,
          upstream: stage.upstream_stage_ids.flatMap((id) => {
            const upstream = executionOf(id);
            return upstream && execution.upstream_execution_ids.includes(upstream.id)
              ? [{ stage_id: id, execution_id: upstream.id, certificate_digest: finalCertificateDigest(upstream) }]
              : [];
          }),
        },
      ];
    }),
    public_keys: publicKeys,
  };
}
