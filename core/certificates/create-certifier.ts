import type { Certifier, DeniedToolCallFacts, ExecutionFacts, ToolCallFacts } from '../agent/certifier.js';
import { canonicalDigest, sha256Hex } from '../canonical-json.js';
import { issueCertificate } from './issue-certificate.js';
import { planHash } from './plan-hash.js';
import type { PolicyRef } from '../policies/policy.js';
import { ACTION_DENIED_PREDICATE, ACTION_SAFE_PREDICATE, FINAL_OUTPUT_SAFE_PREDICATE } from './predicate-types.js';
import { resourceUris, type ResourceUris } from './resource-uris.js';
import type { DigestSet, ResourceDescriptor, Signer } from './types.js';

/** What the runtime guarantees of every finished execution it certifies (docs/workflows.md, "Governed agent executions"). */
const EXECUTION_PROPERTIES = ['every_tool_call_verified', 'certificate_chain_linked', 'output_rules_applied', 'budget_enforced'];

const sha256 = (hex: string): DigestSet => ({ sha256: hex });
const prevDigest = (prev: string | null): DigestSet | null => (prev === null ? null : sha256(prev));

/** The policy the execution ran under, as a ResourceDescriptor (its version as an annotation). */
function policyDescriptor(uris: ResourceUris, policy: PolicyRef): ResourceDescriptor {
  return { name: policy.name, uri: uris.policy(policy), digest: sha256(policy.digest), annotations: { version: policy.version } };
}

function certifyToolCall(signer: Signer, uris: ResourceUris, facts: ToolCallFacts, issuedAt: string) {
  const plan_hash = planHash({ tool: facts.tool, arguments: facts.arguments, capabilities: facts.capabilities });
  return issueCertificate(signer, {
    kind: 'tool_call',
    theorem: 'action_safe',
    plan_hash,
    verified_properties: facts.verifiedProperties,
    issued_at: issuedAt,
    subject: [{ name: `execution/${facts.executionId}/tool-call/${facts.seq}`, digest: { sha256: plan_hash } }],
    predicateType: ACTION_SAFE_PREDICATE,
    predicate: {
      theorem: 'action_safe',
      execution_id: facts.executionId,
      seq: facts.seq,
      tool: facts.tool,
      capability: facts.capability,
      verified_properties: facts.verifiedProperties,
      policy: policyDescriptor(uris, facts.policy),
      result_digest: sha256(facts.resultDigest),
      // Optional in v2: present for upstream tools of the MCP gateway, whose definitions are pinned.
      ...(facts.toolDefinitionDigest ? { tool_definition: sha256(facts.toolDefinitionDigest) } : {}),
      // Optional in v2: present for a call held under the policy's `ask` until a person approved it.
      ...(facts.approvedBy ? { approved_by: { id: facts.approvedBy.id, name: facts.approvedBy.name } } : {}),
      prev: prevDigest(facts.prev),
      issued_at: issuedAt,
    },
  });
}

/** A refused call, in the execution's `prev` chain like an allowed one: what was asked (its arguments' digest), and why not. */
function certifyDeniedToolCall(signer: Signer, uris: ResourceUris, facts: DeniedToolCallFacts, issuedAt: string) {
  const plan_hash = planHash({ tool: facts.tool, arguments: facts.arguments, capabilities: facts.capabilities });
  return issueCertificate(signer, {
    kind: 'tool_call',
    theorem: 'action_denied',
    plan_hash,
    verified_properties: facts.verifiedProperties,
    issued_at: issuedAt,
    subject: [{ name: `execution/${facts.executionId}/tool-call/${facts.seq}`, digest: { sha256: plan_hash } }],
    predicateType: ACTION_DENIED_PREDICATE,
    predicate: {
      theorem: 'action_denied',
      execution_id: facts.executionId,
      seq: facts.seq,
      tool: facts.tool,
      verdict: 'denied',
      reason: facts.reason,
      capability: facts.capability,
      arguments_digest: sha256(canonicalDigest(facts.arguments ?? null)),
      verified_properties: facts.verifiedProperties,
      policy: policyDescriptor(uris, facts.policy),
      ...(facts.toolDefinitionDigest ? { tool_definition: sha256(facts.toolDefinitionDigest) } : {}),
      // Optional: present for a call held under the policy's `ask` that a person denied.
      ...(facts.deniedBy ? { denied_by: { id: facts.deniedBy.id, name: facts.deniedBy.name, reason: facts.deniedBy.reason } } : {}),
      prev: prevDigest(facts.prev),
      issued_at: issuedAt,
    },
  });
}

function certifyExecution(signer: Signer, uris: ResourceUris, facts: ExecutionFacts, issuedAt: string) {
  const verified_properties = facts.upstream.length > 0 ? [...EXECUTION_PROPERTIES, 'upstream_lineage_bound'] : EXECUTION_PROPERTIES;
  return issueCertificate(signer, {
    kind: 'execution',
    theorem: 'final_output_safe',
    // The executed plan: every tool-call entry, in order.
    plan_hash: canonicalDigest(facts.toolCallDigests),
    verified_properties,
    issued_at: issuedAt,
    subject: [{ name: `execution/${facts.executionId}/output`, digest: { sha256: sha256Hex(facts.output) } }],
    predicateType: FINAL_OUTPUT_SAFE_PREDICATE,
    predicate: {
      theorem: 'final_output_safe',
      execution_id: facts.executionId,
      verdict: facts.verdict,
      // The reasons behind the verdict, signed as listed: the record's `violations` are held against them.
      violations: [...facts.violations],
      tool_calls: facts.toolCallDigests.map(sha256),
      cost_cents: facts.costCents,
      policy: policyDescriptor(uris, facts.policy),
      verified_properties,
      // Each upstream execution, pinned by the digest of its execution certificate.
      upstream: facts.upstream.map((u) => ({
        name: `execution/${u.execution_id}`,
        uri: uris.execution(u.execution_id),
        digest: sha256(u.digest),
      })),
      prev: prevDigest(facts.prev),
      issued_at: issuedAt,
    },
  });
}

/**
 * The Certifier port (core/agent/certifier.ts): DSSE-signed in-toto certificates with the v2
 * predicates (docs/attestations.md); `uris` names what they point at.
 */
export function createCertifier(signer: Signer, uris: ResourceUris = resourceUris(), now: () => Date = () => new Date()): Certifier {
  return {
    certifyToolCall: (facts) => certifyToolCall(signer, uris, facts, now().toISOString()),
    certifyDeniedToolCall: (facts) => certifyDeniedToolCall(signer, uris, facts, now().toISOString()),
    certifyExecution: (facts) => certifyExecution(signer, uris, facts, now().toISOString()),
  };
}
