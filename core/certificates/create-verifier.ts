import { verify, type KeyObject } from 'node:crypto';
import { PACKAGE_LIMITS } from './package-limits.js';
import { pae } from './pae.js';
import { keyIdOfJwk, publicKeyFromJwk, type VerificationJwk } from './public-jwk.js';
import { decodeStrictBase64 } from './strict-base64.js';
import {
  IN_TOTO_PAYLOAD_TYPE,
  IN_TOTO_STATEMENT_TYPE,
  type DsseEnvelope,
  type InTotoStatement,
  type VerificationResult,
  type Verifier,
} from './types.js';

function isEnvelope(value: unknown): value is DsseEnvelope {
  const e = value as DsseEnvelope;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.payloadType === 'string' &&
    typeof e.payload === 'string' &&
    Array.isArray(e.signatures) &&
    e.signatures.length > 0 &&
    e.signatures.every((s) => typeof s === 'object' && s !== null && typeof s.keyid === 'string' && typeof s.sig === 'string')
  );
}

function parseStatement(payload: Buffer): InTotoStatement | null {
  try {
    const s = JSON.parse(payload.toString('utf8')) as InTotoStatement;
    const ok =
      s?._type === IN_TOTO_STATEMENT_TYPE &&
      Array.isArray(s.subject) &&
      s.subject.length > 0 &&
      typeof s.predicateType === 'string' &&
      typeof s.predicate === 'object' &&
      s.predicate !== null;
    return ok ? s : null;
  } catch {
    return null;
  }
}

/**
 * Verifies DSSE envelopes against a set of Ed25519 public keys (current and retired). An
 * envelope verifies when it has at most PACKAGE_LIMITS.maxSignatures signatures, at least one
 * under a known key, and every one under a known key is valid (signatures by other keys are
 * ignored: docs/attestations.md, "What the verifier refuses").
 */
export function createVerifier(publicKeys: readonly VerificationJwk[]): Verifier {
  const keys = new Map<string, KeyObject>();
  for (const jwk of publicKeys) {
    const key = publicKeyFromJwk(jwk);
    if (key) keys.set(keyIdOfJwk(jwk), key);
  }
  return {
    verify(envelope: DsseEnvelope): VerificationResult {
      if (!isEnvelope(envelope)) return { verified: false, reason: 'malformed_envelope' };
      if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) return { verified: false, reason: 'payload_type' };
      const payload = decodeStrictBase64(envelope.payload);
      if (!payload) return { verified: false, reason: 'malformed_envelope' };
      // shipgate signs with one key; a pile of signatures only costs the verifier time.
      if (envelope.signatures.length > PACKAGE_LIMITS.maxSignatures) return { verified: false, reason: 'too_many_signatures' };
      const message = pae(envelope.payloadType, payload);
      let knownKey = false;
      for (const { keyid, sig } of envelope.signatures) {
        const key = keys.get(keyid);
        if (!key) continue;
        knownKey = true;
        // A signature claiming a trusted key that does not verify is a forgery or damage: it fails the envelope, never skipped.
        const signature = decodeStrictBase64(sig);
        if (!signature || !verify(null, message, key, signature)) return { verified: false, reason: 'bad_signature' };
      }
      if (!knownKey) return { verified: false, reason: 'unknown_key' };
      const statement = parseStatement(payload);
      if (!statement) return { verified: false, reason: 'malformed_statement' };
      return { verified: true, statement };
    },
  };
}
