import { sign, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import { pae } from './pae.js';
import { publicJwkOf } from './public-jwk.js';
import { IN_TOTO_PAYLOAD_TYPE, type DsseEnvelope, type InTotoStatement, type Signer } from './types.js';

/** Signs in-toto statements as DSSE envelopes (Ed25519 over the PAE of the canonical JSON). */
export function createSigner(privateKey: KeyObject): Signer {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TypeError('The signing key must be an Ed25519 private key.');
  }
  const keyid = publicJwkOf(privateKey).kid;
  return {
    keyid,
    sign(statement: InTotoStatement): DsseEnvelope {
      const payload = Buffer.from(canonicalJson(statement), 'utf8');
      const sig = sign(null, pae(IN_TOTO_PAYLOAD_TYPE, payload), privateKey);
      return {
        payloadType: IN_TOTO_PAYLOAD_TYPE,
        payload: payload.toString('base64'),
        signatures: [{ keyid, sig: sig.toString('base64') }],
      };
    },
  };
}
