import { createHash } from 'node:crypto';
import type { DsseEnvelope, VerificationResult, Verifier } from '../certificates/types.js';
import type { CachingVerifier } from './certificate-validity.js';

/**
 * Remembers verification results of envelopes by the digest of their whole JSON text, so an
 * unchanged certificate is not re-verified on every decision poll, while any altered byte is a
 * different key and is verified afresh. The key set of a Verifier is fixed for the process,
 * so a remembered result stays true. Bounded: oldest entries go first.
 */
export function createCachingVerifier(verifier: Verifier, capacity = 50_000): CachingVerifier {
  const results = new Map<string, VerificationResult>();
  function remembered(json: string, verify: () => VerificationResult): VerificationResult {
    const key = createHash('sha256').update(json, 'utf8').digest('hex');
    const known = results.get(key);
    if (known) return known;
    const result = verify();
    if (results.size >= capacity) results.delete(results.keys().next().value!);
    results.set(key, result);
    return result;
  }
  return {
    verify(envelope: DsseEnvelope): VerificationResult {
      let json: string | undefined;
      try {
        json = JSON.stringify(envelope) as string | undefined;
      } catch {
        json = undefined;
      }
      // Not JSON (a cycle, a bigint, undefined): nothing to remember it by.
      return json === undefined ? verifier.verify(envelope) : remembered(json, () => verifier.verify(envelope));
    },
    verifyJson(envelopeJson: string): VerificationResult {
      return remembered(envelopeJson, () => verifier.verify(JSON.parse(envelopeJson) as DsseEnvelope));
    },
    rememberedBySha256(sha256Hex: string): VerificationResult | undefined {
      return results.get(sha256Hex);
    },
  };
}
