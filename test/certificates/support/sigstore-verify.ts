import { createPublicKey } from 'node:crypto';
import { toSignedEntity, toTrustMaterial, Verifier } from '@sigstore/verify';

type Bundle = Parameters<typeof toSignedEntity>[0];
type TrustedRoot = Parameters<typeof toTrustMaterial>[0];

/**
 * Verifies a DSSE envelope with sigstore's own verifier (@sigstore/verify), offline: the
 * envelope goes into a Sigstore bundle whose verification material is a public-key hint (the
 * envelope's keyid), and the trust material knows only the given Ed25519 keys by keyid (no
 * transparency log, certificate log or timestamp authority). Throws sigstore's
 * VerificationError when the signature does not verify; returns the decoded statement.
 */
export function sigstoreVerify(
  envelope: { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] },
  jwks: { x: string; kid?: string }[],
): unknown {
  const [signature] = envelope.signatures;
  const bundle: Bundle = {
    mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
    verificationMaterial: {
      content: { $case: 'publicKey', publicKey: { hint: signature.keyid } },
      tlogEntries: [],
      timestampVerificationData: undefined,
    },
    content: {
      $case: 'dsseEnvelope',
      dsseEnvelope: {
        payloadType: envelope.payloadType,
        payload: Buffer.from(envelope.payload, 'base64'),
        signatures: [{ keyid: signature.keyid, sig: Buffer.from(signature.sig, 'base64') }],
      },
    },
  };
  const root: TrustedRoot = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    certificateAuthorities: [],
    timestampAuthorities: [],
    tlogs: [],
    ctlogs: [],
  };
  const trust = toTrustMaterial(root, (hint) => {
    const jwk = jwks.find((k) => k.kid === hint);
    if (!jwk) throw new Error(`no key for hint ${hint}`);
    return { publicKey: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }), validFor: () => true };
  });
  new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundle));
  return JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
}
