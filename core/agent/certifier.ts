import type { Certificate } from '../certificates/types.js';
import type { PolicyRef } from '../policies/policy.js';

export interface ToolCallFacts {
  executionId: string;
  seq: number;
  tool: string;
  arguments: unknown;
  capability: string;
  /** The capabilities the execution held when the call was verified. */
  capabilities: string[];
  verifiedProperties: string[];
  policy: PolicyRef;
  resultDigest: string;
  /** Digest of the previous certificate of this execution (null for the first). */
  prev: string | null;
}

export interface ExecutionFacts {
  executionId: string;
  output: string;
  verdict: 'compliant' | 'non_compliant';
  /** Digests (hex SHA-256 of canonical JSON) of ALL tool-call entries, allowed and denied, in order. */
  toolCallDigests: string[];
  costCents: number;
  policy: PolicyRef;
  /** The lineage: upstream executions' certificate digests (materials). */
  upstream: { execution_id: string; digest: string }[];
  prev: string | null;
}

/** Issues signed certificates (DSSE + in-toto; docs/workflows.md, "Governed agent executions": certificates). Implemented in core/certificates. */
export interface Certifier {
  certifyToolCall(facts: ToolCallFacts): Certificate;
  certifyExecution(facts: ExecutionFacts): Certificate;
}
