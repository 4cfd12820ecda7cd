import { constants, createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/**
 * A public key a gate names for provenance signatures (docs/release-gate.md, "Evidence read by content"): a JWK of
 * an Ed25519 (OKP), EC P-256 or RSA (2048 bits or more) key. Private members are refused by the rule schema.
 */
export interface ProvenanceKey {
  kty: 'OKP' | 'EC' | 'RSA';
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  kid?: string;
  alg?: string;
  use?: 'sig';
}

/** The members RFC 7638 hashes, per key type, in lexicographic order. */
const THUMBPRINT_MEMBERS: Record<ProvenanceKey['kty'], (keyof ProvenanceKey)[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
  RSA: ['e', 'kty', 'n'],
};

/** RFC 7638 JWK thumbprint: base64url SHA-256 of the required members' JSON, in order, without whitespace. */
export function jwkThumbprint(jwk: ProvenanceKey): string {
  const members = THUMBPRINT_MEMBERS[jwk.kty].map((m) => `${JSON.stringify(m)}:${JSON.stringify(jwk[m] ?? '')}`);
  return createHash('sha256')
    .update(`{${members.join(',')}}`, 'utf8')
    .digest('base64url');
}

/** The names a key is known by in `verified_keys` and in a `keys` rule: its thumbprint, and its kid when it has one. */
export function keyNames(jwk: ProvenanceKey): string[] {
  const thumbprint = jwkThumbprint(jwk);
  return jwk.kid && jwk.kid !== thumbprint ? [thumbprint, jwk.kid] : [thumbprint];
}

/** The public KeyObject of a supported JWK, or null (wrong type or curve, malformed, RSA under 2048 bits, private). */
export function publicKeyOfJwk(jwk: ProvenanceKey): KeyObject | null {
  const shapeOk =
    (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && typeof jwk.x === 'string') ||
    (jwk.kty === 'EC' && jwk.crv === 'P-256' && typeof jwk.x === 'string' && typeof jwk.y === 'string') ||
    (jwk.kty === 'RSA' && typeof jwk.n === 'string' && typeof jwk.e === 'string');
  if (!shapeOk || 'd' in jwk) return null;
  try {
    const { kty, crv, x, y, n, e } = jwk;
    const key = createPublicKey({ key: { kty, crv, x, y, n, e }, format: 'jwk' });
    if (kty === 'RSA' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) return null;
    return key;
  } catch {
    return null;
  }
}

const RSA_HASHES: Record<string, string> = { RS384: 'sha384', RS512: 'sha512', PS384: 'sha384', PS512: 'sha512' };

/**
 * Whether `signature` is a valid signature of `message` under the key: Ed25519 (EdDSA); ECDSA P-256 with SHA-256,
 * DER or raw r||s (64 bytes); RSA PKCS#1 v1.5 or PSS with SHA-256 (or the hash the JWK's `alg` names).
 */
export function verifyWithKey(jwk: ProvenanceKey, key: KeyObject, message: Buffer, signature: Buffer): boolean {
  try {
    if (jwk.kty === 'OKP') return verify(null, message, key, signature);
    if (jwk.kty === 'EC') {
      const dsaEncoding = signature.length === 64 ? 'ieee-p1363' : 'der';
      return verify('sha256', message, { key, dsaEncoding }, signature);
    }
    const hash = RSA_HASHES[jwk.alg ?? ''] ?? 'sha256';
    if (verify(hash, message, key, signature)) return true;
    return verify(hash, message, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, signature);
  } catch {
    return false;
  }
}
