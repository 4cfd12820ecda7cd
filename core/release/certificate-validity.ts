import type { VerificationResult, Verifier } from '../certificates/types.js';

/** An execution certificate as the decision's read names it: its id and the SHA-256 (hex) of its envelope's stored JSON text. */
export interface StoredCertificate {
  id: string;
  sha256: string;
}

/**
 * A verifier that remembers each result by the SHA-256 of the envelope's whole JSON text, so the
 * database can send a stored envelope's digest instead of the envelope (ARCHITECTURE.md,
 * "Process-local state"). Implemented by core/release/caching-verifier.ts.
 */
export interface CachingVerifier extends Verifier {
  /** Verifies an envelope given as its JSON text (as stored), parsing it only when not remembered. */
  verifyJson(envelopeJson: string): VerificationResult;
  /** The remembered result for the envelope whose JSON text has this SHA-256 (hex), if any. */
  rememberedBySha256(sha256Hex: string): VerificationResult | undefined;
}

/** The stored envelopes (JSON text) of these certificates; a certificate gone meanwhile is absent. */
export type EnvelopeReader = (certificateIds: string[]) => Promise<{ id: string; envelope: string }[]>;

/**
 * Whether each certificate verifies, by id: remembered by its envelope's digest, else read and
 * verified (and remembered by the digest of the text actually verified, so an envelope altered
 * since the digest was read is judged as read). A certificate gone meanwhile is not valid. Reads
 * envelopes only for certificates this process has not verified before.
 */
export async function certificateValidity(
  certificates: readonly StoredCertificate[],
  verifier: CachingVerifier,
  envelopes: EnvelopeReader,
): Promise<Map<string, boolean>> {
  const valid = new Map<string, boolean>();
  const unknown: string[] = [];
  for (const { id, sha256 } of certificates) {
    const known = verifier.rememberedBySha256(sha256);
    if (known) valid.set(id, known.verified);
    else unknown.push(id);
  }
  if (unknown.length === 0) return valid;
  for (const id of unknown) valid.set(id, false);
  for (const { id, envelope } of await envelopes(unknown)) valid.set(id, verifier.verifyJson(envelope).verified);
  return valid;
}
