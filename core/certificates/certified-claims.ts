import { ACTION_DENIED_PREDICATE, ACTION_SAFE_PREDICATE_V1, FINAL_OUTPUT_SAFE_PREDICATE_V1 } from './predicate-types.js';

/**
 * What the chain, record and lineage checks read from a tool-call or execution certificate's
 * predicate, the same for both versions (docs/attestations.md): v1 wrote digests as bare hex
 * and the lineage as `materials` (`uri: execution/<id>`); v2 writes DigestSets and the lineage
 * as `upstream` ResourceDescriptors (`name: execution/<id>`). Values are as claimed, unverified.
 */
export interface CertifiedClaims {
  executionId: unknown;
  seq: unknown;
  tool: unknown;
  /** Hex SHA-256 of the tool call's result. */
  resultDigest: unknown;
  /** Hex digest of the previous certificate of the execution, null for the first. */
  prev: unknown;
  /** The tool-call entry digests (hex) in order, as the execution certificate lists them. */
  toolCalls: unknown;
  /** Upstream execution id -> the digest of its execution certificate (the signed lineage). */
  upstream: Map<string, string>;
  /** The execution certificate's verdict and cost. */
  verdict: unknown;
  costCents: unknown;
  /**
   * The violations behind the verdict, as the execution certificate lists them; undefined for one
   * issued before v2 signed them (an optional v2 field, never in v1): then nothing holds the record's.
   */
  violations: unknown;
  /** The capability a tool-call certificate names. */
  capability: unknown;
  /** The policy version it ran under, as the record's PolicyRef names it: `{name, version, digest}` (hex). */
  policy: { name: unknown; version: unknown; digest: unknown };
  /** A refused call's certificate (`action-denied`): its reason and its arguments' digest (hex); undefined for the others. */
  denied?: { reason: unknown; argumentsDigest: unknown };
}

type Predicate = Record<string, unknown>;

const sha256Of = (digestSet: unknown): unknown => (digestSet === null ? null : (digestSet as { sha256?: unknown } | undefined)?.sha256);

function lineage(descriptors: unknown, idField: 'uri' | 'name'): Map<string, string> {
  const list = Array.isArray(descriptors) ? (descriptors as Record<string, unknown>[]) : [];
  return new Map(list.map((d) => [String(d?.[idField]).replace(/^execution\//, ''), String(sha256Of(d?.digest))]));
}

export function isV1Predicate(predicateType: unknown): boolean {
  return predicateType === ACTION_SAFE_PREDICATE_V1 || predicateType === FINAL_OUTPUT_SAFE_PREDICATE_V1;
}

export function certifiedClaims(predicateType: unknown, predicate: Predicate): CertifiedClaims {
  const common = {
    executionId: predicate.execution_id,
    seq: predicate.seq,
    tool: predicate.tool,
    verdict: predicate.verdict,
    costCents: predicate.cost_cents,
    violations: predicate.violations,
    capability: predicate.capability,
  };
  const policy = (predicate.policy ?? {}) as Record<string, unknown>;
  if (isV1Predicate(predicateType)) {
    return {
      ...common,
      policy: { name: policy.name, version: policy.version, digest: policy.digest },
      resultDigest: predicate.result_digest,
      prev: predicate.prev,
      toolCalls: predicate.tool_calls,
      upstream: lineage(predicate.materials, 'uri'),
    };
  }
  const denied =
    predicateType === ACTION_DENIED_PREDICATE
      ? { denied: { reason: predicate.reason, argumentsDigest: sha256Of(predicate.arguments_digest) } }
      : {};
  return {
    ...common,
    ...denied,
    policy: {
      name: policy.name,
      version: (policy.annotations as { version?: unknown } | undefined)?.version,
      digest: sha256Of(policy.digest),
    },
    resultDigest: sha256Of(predicate.result_digest),
    prev: sha256Of(predicate.prev),
    toolCalls: Array.isArray(predicate.tool_calls) ? predicate.tool_calls.map(sha256Of) : predicate.tool_calls,
    upstream: lineage(predicate.upstream, 'name'),
  };
}
