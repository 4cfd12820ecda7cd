import { publicKeyFromJwk, type VerificationJwk } from './public-jwk.js';

/**
 * The entries of a JWK list that are Ed25519 public keys, and a note for each that is not (an
 * RSA key, `null`, a numeric `x`...): those are ignored, never trusted, never a crash
 * (docs/attestations.md, "What the verifier refuses").
 */
export function usableJwks(list: readonly unknown[]): { keys: VerificationJwk[]; ignored: string[] } {
  const keys: VerificationJwk[] = [];
  const ignored: string[] = [];
  list.forEach((entry, i) => {
    if (publicKeyFromJwk(entry as VerificationJwk)) keys.push(entry as VerificationJwk);
    else {
      const kty = (entry as { kty?: unknown } | null)?.kty;
      ignored.push(`key entry [${i}] ignored: not an Ed25519 public JWK${kty === undefined ? '' : ` (kty ${JSON.stringify(kty)})`}`);
    }
  });
  return { keys, ignored };
}
