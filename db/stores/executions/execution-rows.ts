import type { ProviderName } from '../../../core/agent/provider.js';
import type { Certificate } from '../../../core/certificates/types.js';
import type { Artifact, Execution, ExecutionKind, ExecutionStatus, ToolCallEntry, Verdict } from '../../../core/executions/execution.js';
import type { ExecutionSummary } from '../../../core/executions/execution-store.js';
import type { DroppedPermission, StageRole } from '../../../core/policies/policy.js';
import type { ArtifactRow, CertificateRow, ExecutionRow, ToolCallCertificateRow, ToolCallRow } from '../../tables.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The record without its children; never carries the key ciphertext. */
export function toExecutionSummary(row: ExecutionRow): ExecutionSummary {
  return {
    id: row.id,
    kind: row.kind as ExecutionKind,
    owner_id: row.owner_id,
    workflow_id: row.workflow_id,
    stage_id: row.stage_id,
    task: row.task,
    status: row.status as ExecutionStatus,
    verdict: row.verdict as Verdict | null,
    policy: { name: row.policy_name, version: row.policy_version, digest: row.policy_digest },
    stage_role: row.stage_role as StageRole,
    permissions: row.permissions,
    dropped_permissions: row.dropped_permissions as DroppedPermission[],
    budget_cents: row.budget_cents,
    cost_cents: row.cost_cents,
    provider: row.provider as ProviderName | null,
    model: row.model,
    api_key_override: row.api_key_override,
    upstream_execution_ids: row.upstream_execution_ids,
    repo_root: row.repo_root,
    commit_sha: row.commit_sha,
    output: row.output,
    error: row.error,
    violations: row.violations,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

export function toToolCall(row: ToolCallRow): ToolCallEntry {
  return {
    seq: row.seq,
    call_id: row.call_id,
    tool: row.tool,
    arguments: row.arguments,
    capability: row.capability,
    verdict: row.verdict as ToolCallEntry['verdict'],
    reason: row.reason as ToolCallEntry['reason'],
    certificate_id: row.certificate_id,
    result_digest: row.result_digest,
    output: row.output,
    duration_ms: row.duration_ms,
    created_at: row.created_at.toISOString(),
    // Only a sub-agent's call has one: every other entry keeps the fields (and digest) it always had.
    ...(row.agent_id ? { agent_id: row.agent_id } : {}),
    ...(row.approved_by ? { approved_by: row.approved_by } : {}),
    ...(row.denied_by ? { denied_by: row.denied_by } : {}),
  };
}

/** A certificate from either table: `certificates` (execution certificates) or `tool_call_certificates`. */
export function toCertificate(row: CertificateRow | ToolCallCertificateRow): Certificate {
  return {
    id: row.id,
    kind: 'kind' in row ? (row.kind as Certificate['kind']) : 'tool_call',
    theorem: row.theorem,
    plan_hash: row.plan_hash,
    verified_properties: row.verified_properties,
    prover: row.prover as Certificate['prover'],
    issued_at: row.issued_at.toISOString(),
    digest: row.digest,
    envelope: row.envelope,
  };
}

export function toArtifact(row: ArtifactRow): Artifact {
  const artifact: Artifact = { kind: row.kind as Artifact['kind'], name: row.name, content: row.content, digest: row.digest };
  if (row.approved_for_release !== null) artifact.approved_for_release = row.approved_for_release;
  return artifact;
}

/** Row values for inserting a certificate (jsonb columns serialised explicitly). */
export function certificateValues(certificate: Certificate, executionId: string | null) {
  return {
    id: certificate.id,
    execution_id: executionId,
    kind: certificate.kind,
    theorem: certificate.theorem,
    plan_hash: certificate.plan_hash,
    verified_properties: JSON.stringify(certificate.verified_properties),
    prover: certificate.prover,
    issued_at: certificate.issued_at,
    digest: certificate.digest,
    envelope: JSON.stringify(certificate.envelope),
  };
}

/** Assembles the full record from its row and children (children already in order). */
export function toExecution(
  row: ExecutionRow,
  toolCalls: ToolCallRow[],
  certificates: (CertificateRow | ToolCallCertificateRow)[],
  artifacts: ArtifactRow[],
): Execution {
  return {
    ...toExecutionSummary(row),
    tool_calls: toolCalls.map(toToolCall),
    certificates: certificates.map(toCertificate),
    artifacts: artifacts.map(toArtifact),
  };
}
