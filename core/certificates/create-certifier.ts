import type { Certifier, ExecutionFacts, ToolCallFacts } from '../agent/certifier.js';
import { canonicalDigest, sha256Hex } from '../canonical-json.js';
import { issueCertificate } from './issue-certificate.js';
import { planHash } from './plan-hash.js';
import { ACTION_SAFE_PREDICATE, FINAL_OUTPUT_SAFE_PREDICATE } from './predicate-types.js';
import type { Signer } from './types.js';

/** What the runtime guarantees of every finished execution it certifies (README, "Governed agent executions"). */
const EXECUTION_PROPERTIES = ['every_tool_call_verified', 'certificate_chain_linked', 'output_rules_applied', 'budget_enforced'];

function certifyToolCall(signer: Signer, facts: ToolCallFacts, issuedAt: string) {
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
      policy: facts.policy,
      result_digest: facts.resultDigest,
      prev: facts.prev,
      issued_at: issuedAt,
    },
  });
}

function certifyExecution(signer: Signer, facts: ExecutionFacts, issuedAt: string) {
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
      tool_calls: facts.toolCallDigests,
      cost_cents: facts.costCents,
      policy: facts.policy,
      verified_properties,
      materials: facts.upstream.map((u) => ({ uri: `execution/${u.execution_id}`, digest: { sha256: u.digest } })),
      prev: facts.prev,
      issued_at: issuedAt,
    },
  });
}

/** The Certifier port (core/agent/certifier.ts): DSSE-signed in-toto certificates. */
export function createCertifier(signer: Signer, now: () => Date = () => new Date()): Certifier {
  return {
    certifyToolCall: (facts) => certifyToolCall(signer, facts, now().toISOString()),
    certifyExecution: (facts) => certifyExecution(signer, facts, now().toISOString()),
  };
}
