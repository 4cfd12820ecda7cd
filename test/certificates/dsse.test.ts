import { generateKeyPairSync } from 'node:crypto';
import { createSigner } from '../../core/certificates/create-signer.js';
import { createVerifier } from '../../core/certificates/create-verifier.js';
import { pae } from '../../core/certificates/pae.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { IN_TOTO_PAYLOAD_TYPE, IN_TOTO_STATEMENT_TYPE, type DsseEnvelope, type InTotoStatement } from '../../core/certificates/types.js';
import { specKeyId, specPae, specVerify } from './support/independent-dsse.js';

const statement: InTotoStatement = {
  _type: IN_TOTO_STATEMENT_TYPE,
  subject: [{ name: 'execution/1/tool-call/1', digest: { sha256: 'ab'.repeat(32) } }],
  predicateType: 'https://example.com/test/v1',
  predicate: { theorem: 'action_safe', note: 'héllo' },
};

function key() {
  return generateKeyPairSync('ed25519').privateKey;
}

function flipBit(base64: string, index: number): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[index] ^= 0x01;
  return bytes.toString('base64');
}

describe('PAE', () => {
  it('matches the DSSE specification test vector', () => {
    const expected = 'DSSEv1 29 http://example.com/HelloWorld 11 hello world';
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe(expected);
    expect(specPae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe(expected);
  });

  it('counts bytes, not characters', () => {
    expect(pae('t', Buffer.from('é')).toString()).toBe('DSSEv1 1 t 2 é');
  });
});

describe('signer and verifier', () => {
  const privateKey = key();
  const jwk = publicJwkOf(privateKey);
  const signer = createSigner(privateKey);
  const envelope = signer.sign(statement);

  it('produces an in-toto DSSE envelope that an independent DSSE verifier accepts', () => {
    expect(envelope.payloadType).toBe(IN_TOTO_PAYLOAD_TYPE);
    expect(envelope.signatures).toEqual([{ keyid: signer.keyid, sig: expect.any(String) }]);
    expect(signer.keyid).toBe(specKeyId(jwk));
    expect(signer.keyid).toMatch(/^[0-9a-f]{64}$/);
    expect(specVerify(envelope, [jwk])).toEqual(statement);
    expect(createVerifier([jwk]).verify(envelope)).toEqual({ verified: true, statement });
  });

  it('exports the public key as an Ed25519 JWK whose kid is the keyid', () => {
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: signer.keyid, use: 'sig', alg: 'EdDSA', status: 'current' });
    expect(Buffer.from(jwk.x, 'base64url')).toHaveLength(32);
    expect(JSON.stringify(jwk)).not.toMatch(/"d"/);
  });

  it('detects an alteration of any byte of the payload', () => {
    const verifier = createVerifier([jwk]);
    const length = Buffer.from(envelope.payload, 'base64').length;
    for (let i = 0; i < length; i++) {
      const altered = { ...envelope, payload: flipBit(envelope.payload, i) };
      expect(verifier.verify(altered)).toEqual({ verified: false, reason: 'bad_signature' });
      expect(specVerify(altered, [jwk])).toBeNull();
    }
  });

  it('detects an alteration of any byte of the signature', () => {
    const verifier = createVerifier([jwk]);
    for (let i = 0; i < 64; i++) {
      const altered: DsseEnvelope = {
        ...envelope,
        signatures: [{ ...envelope.signatures[0], sig: flipBit(envelope.signatures[0].sig, i) }],
      };
      expect(verifier.verify(altered).verified).toBe(false);
      expect(specVerify(altered, [jwk])).toBeNull();
    }
  });

  it('refuses a re-spelled base64 that decodes to the same bytes', () => {
    const sig = envelope.signatures[0].sig; // 64 bytes: the last character before "==" has 4 unused bits
    const last = sig[sig.length - 3];
    const twin = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
      .split('')
      .find((c) => c !== last && Buffer.from(`${sig.slice(0, -3)}${c}==`, 'base64').equals(Buffer.from(sig, 'base64')))!;
    const altered = { ...envelope, signatures: [{ ...envelope.signatures[0], sig: `${sig.slice(0, -3)}${twin}==` }] };
    expect(createVerifier([jwk]).verify(altered)).toEqual({ verified: false, reason: 'bad_signature' });
  });

  it('names why an envelope fails: unknown key, payload type, malformed envelope or statement', () => {
    const verifier = createVerifier([jwk]);
    expect(createVerifier([publicJwkOf(key())]).verify(envelope)).toEqual({ verified: false, reason: 'unknown_key' });
    expect(verifier.verify({ ...envelope, payloadType: 'text/plain' })).toEqual({ verified: false, reason: 'payload_type' });
    expect(verifier.verify({ ...envelope, signatures: [] })).toEqual({ verified: false, reason: 'malformed_envelope' });
    expect(verifier.verify({ ...envelope, payload: 'not base64!' })).toEqual({ verified: false, reason: 'malformed_envelope' });
    expect(verifier.verify(null as unknown as DsseEnvelope)).toEqual({ verified: false, reason: 'malformed_envelope' });
    const notStatement = signer.sign({ hello: 'world' } as unknown as InTotoStatement);
    expect(verifier.verify(notStatement)).toEqual({ verified: false, reason: 'malformed_statement' });
  });

  it('verifies under any of several keys (current and retired)', () => {
    const old = key();
    const oldEnvelope = createSigner(old).sign(statement);
    const verifier = createVerifier([jwk, publicJwkOf(old, { status: 'retired' })]);
    expect(verifier.verify(envelope).verified).toBe(true);
    expect(verifier.verify(oldEnvelope).verified).toBe(true);
  });

  it('refuses keys that are not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(() => createSigner(rsa)).toThrow(/Ed25519/);
  });
});
