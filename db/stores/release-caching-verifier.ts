import { createHash } from 'node:crypto';
import type { DsseEnvelope, VerificationResult, Verifier } from '../../core/certificates/types.js';

/**
 * Remembers verification results of envelopes by the digest of their whole content (payload
 * and signatures), so an unchanged certificate is not re-verified on every decision poll, while
 * any altered byte is a different key and is verified afresh. The key set of a Verifier is
 * fixed for the process, so a remembered result stays true. Bounded: oldest entries go first.
 */
export function createCachingVerifier(verifier: Verifier, capacity = 50_000): Verifier {
  const results = new Map<string, VerificationResult>();
  return {
    verify(envelope: DsseEnvelope): VerificationResult {
      let key: string;
      try {
        key = createHash('sha256').update(JSON.stringify([envelope.payloadType, envelope.payload, envelope.signatures])).digest('hex');
      } catch {
        return verifier.verify(envelope);
      }
      const known = results.get(key);
      if (known) return known;
      const result = verifier.verify(envelope);
      if (results.size >= capacity) results.delete(results.keys().next().value!);
      results.set(key, result);
      return result;
    },
  };
}
