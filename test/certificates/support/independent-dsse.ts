import { createHash, createPublicKey, verify } from 'node:crypto';

/**
 * A DSSE verifier written from the specification only
 * (https://github.com/secure-systems-lab/dsse/blob/master/protocol.md), sharing no code
 * with core/certificates, so the service's envelopes are checked by a second implementation.
 */
export function specPae(type: string, body: Buffer): Buffer {
  const t = Buffer.from(type, 'utf8');
  return Buffer.concat([
    Buffer.from('DSSEv1'),
    Buffer.from(' '),
    Buffer.from(String(t.length)),
    Buffer.from(' '),
    t,
    Buffer.from(' '),
    Buffer.from(String(body.length)),
    Buffer.from(' '),
    body,
  ]);
}

export interface SpecJwk {
  x: string;
}

export function specKeyId(jwk: SpecJwk): string {
  return createHash('sha256').update(Buffer.from(jwk.x, 'base64url')).digest('hex');
}

/** The decoded statement when some signature verifies under a key with its keyid; else null. */
export function specVerify(
  envelope: { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] },
  jwks: SpecJwk[],
): unknown {
  const body = Buffer.from(envelope.payload, 'base64');
  if (body.toString('base64') !== envelope.payload) return null;
  const message = specPae(envelope.payloadType, body);
  for (const signature of envelope.signatures) {
    const jwk = jwks.find((k) => specKeyId(k) === signature.keyid);
    if (!jwk) continue;
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    const sig = Buffer.from(signature.sig, 'base64');
    if (sig.toString('base64') === signature.sig && verify(null, message, key, sig)) return JSON.parse(body.toString('utf8'));
  }
  return null;
}
