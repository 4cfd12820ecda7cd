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
  /** SHA-256 of the pinned definition of the upstream tool called through the MCP gateway (docs/mcp-gateway.md, "Pinned tool definitions"). */
  toolDefinitionDigest?: string;
  /** The person who approved a call its policy put under `ask` (docs/mcp-gateway.md, "Asking a person"). */
  approvedBy?: { id: string; name: string | null };
}

/** A tool call refused by verification (docs/attestations.md, "action-denied"): nothing was done, and the refusal is signed. */
export interface DeniedToolCallFacts {
  executionId: string;
  seq: number;
  tool: string;
  arguments: unknown;
  /** Why it was refused (the entry's `reason`) and the capability it lacked, if one. */
  reason: string;
  capability: string | null;
  /** The capabilities the execution held when the call was verified. */
  capabilities: string[];
  /** What the call was shown to satisfy before the check that refused it. */
  verifiedProperties: string[];
  policy: PolicyRef;
  prev: string | null;
  toolDefinitionDigest?: string;
  /** A held call a person denied: who, and the words they gave. */
  deniedBy?: { id: string; name: string | null; reason: string | null };
}

export interface ExecutionFacts {
  executionId: string;
  output: string;
  verdict: 'compliant' | 'non_compliant';
  /**
   * Why the verdict is what it is (decide-verdict.ts), in the order recorded: signed so that the
   * record's `violations` cannot be edited unseen after the run (docs/attestations.md).
   */
  violations: string[];
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
  certifyDeniedToolCall(facts: DeniedToolCallFacts): Certificate;
  certifyExecution(facts: ExecutionFacts): Certificate;
}
