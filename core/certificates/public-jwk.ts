import { createPublicKey, type KeyObject } from 'node:crypto';
import { sha256Hex } from '../canonical-json.js';
import type { PublicJwk } from './types.js';

/** The fields a verifier needs of a JWK; `kid` and lifetime are informative only. */
export type VerificationJwk = Pick<PublicJwk, 'kty' | 'crv' | 'x'> & Partial<PublicJwk>;

/** keyid = hex SHA-256 of the raw 32-byte Ed25519 public key (the JWK's `x`, decoded). */
export function keyIdOfJwk(jwk: { x: string }): string {
  return sha256Hex(Buffer.from(jwk.x, 'base64url'));
}

/** The public JWK of an Ed25519 key (public or private KeyObject). */
export function publicJwkOf(
  key: KeyObject,
  lifetime: { status?: PublicJwk['status']; created_at?: string; retired_at?: string | null } = {},
): PublicJwk {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new TypeError('Signing keys must be Ed25519.');
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x,
    kid: keyIdOfJwk({ x }),
    use: 'sig',
    alg: 'EdDSA',
    status: lifetime.status ?? 'current',
    ...lifetime,
  };
}

/** A public KeyObject from a JWK, or null when it is not an Ed25519 public key. */
export function publicKeyFromJwk(jwk: VerificationJwk): KeyObject | null {
  if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  } catch {
    return null;
  }
}
