import { canonicalDigest } from '../canonical-json.js';
import { certifiedClaims } from './certified-claims.js';
import {
  ACTION_DENIED_PREDICATE,
  ACTION_SAFE_PREDICATE,
  ACTION_SAFE_PREDICATE_V1,
  FINAL_OUTPUT_SAFE_PREDICATE,
  FINAL_OUTPUT_SAFE_PREDICATE_V1,
  PROVER,
  VERIFICATION_SUMMARY_PREDICATE,
} from './predicate-types.js';
import type { Certificate, InTotoStatement, Verifier } from './types.js';

export interface CertificateCheck {
  id: string;
  verified: boolean;
  /** Machine-readable cause of a failure: `bad_signature`, `digest_mismatch`, `broken_chain`, ... */
  reason?: string;
  /** What exactly does not match, for people. */
  detail?: string;
}

/** The predicate types a certificate of each kind may carry: certificates issued before v2 still verify. */
const PREDICATES_OF_KIND: Record<string, readonly string[]> = {
  tool_call: [ACTION_SAFE_PREDICATE, ACTION_SAFE_PREDICATE_V1, ACTION_DENIED_PREDICATE],
  execution: [FINAL_OUTPUT_SAFE_PREDICATE, FINAL_OUTPUT_SAFE_PREDICATE_V1],
  promotion: [VERIFICATION_SUMMARY_PREDICATE],
};

function sameList(a: unknown, b: unknown): boolean {
  return canonicalDigest(a ?? null) === canonicalDigest(b ?? null);
}

/** Which stored field disagrees with the signed statement, if any. */
function recordMismatch(cert: Certificate, statement: InTotoStatement): string | undefined {
  const predicate = statement.predicate as Record<string, unknown>;
  if (!PREDICATES_OF_KIND[cert.kind]?.includes(statement.predicateType)) return 'kind';
  if (cert.prover !== PROVER) return 'prover';
  if (cert.kind === 'promotion') return undefined;
  if (predicate.theorem !== cert.theorem) return 'theorem';
  if (predicate.issued_at !== cert.issued_at) return 'issued_at';
  if (!sameList(predicate.verified_properties, cert.verified_properties)) return 'verified_properties';
  const toolCalls = certifiedClaims(statement.predicateType, predicate).toolCalls;
  const planHash = cert.kind === 'tool_call' ? statement.subject[0]?.digest?.sha256 : canonicalDigest(toolCalls ?? null);
  if (planHash !== cert.plan_hash) return 'plan_hash';
  return undefined;
}

/**
 * One certificate on its own: the envelope verifies under a known key, `digest` is the digest
 * of the envelope, and the record's fields say what the signed statement says.
 */
export function checkCertificate(cert: Certificate, verifier: Verifier): CertificateCheck & { statement?: InTotoStatement } {
  const id = String(cert?.id);
  const result = verifier.verify(cert?.envelope);
  if (!result.verified || !result.statement)
    return { id, verified: false, reason: result.reason ?? 'unverified', detail: `envelope does not verify (${result.reason})` };
  if (cert.digest !== canonicalDigest(cert.envelope))
    return { id, verified: false, reason: 'digest_mismatch', detail: 'digest is not the SHA-256 of the envelope' };
  const field = recordMismatch(cert, result.statement);
  if (field) return { id, verified: false, reason: 'record_mismatch', detail: `${field} differs from the signed statement` };
  return { id, verified: true, statement: result.statement };
}
