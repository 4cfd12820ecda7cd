import { createHash, generateKeyPairSync } from 'node:crypto';
import { createSigner } from '../../core/certificates/create-signer.js';
import { createVerifier } from '../../core/certificates/create-verifier.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import type { DsseEnvelope, Verifier } from '../../core/certificates/types.js';
import { createCachingVerifier } from '../../core/release/caching-verifier.js';

const { privateKey } = generateKeyPairSync('ed25519');
const envelope = createSigner(privateKey).sign({
  _type: 'https://in-toto.io/Statement/v1',
  subject: [{ name: 'x', digest: { sha256: '0'.repeat(64) } }],
  predicateType: 'x',
  predicate: { n: 1 },
});

function counting(inner: Verifier) {
  let calls = 0;
  return {
    verifier: {
      verify: (e: DsseEnvelope) => {
        calls += 1;
        return inner.verify(e);
      },
    },
    calls: () => calls,
  };
}

describe('createCachingVerifier', () => {
  it('verifies an unchanged envelope once, and any altered one afresh (never answering from the cache)', () => {
    const inner = counting(createVerifier([publicJwkOf(privateKey)]));
    const cached = createCachingVerifier(inner.verifier);
    expect(cached.verify(envelope).verified).toBe(true);
    expect(cached.verify({ ...envelope }).verified).toBe(true);
    expect(inner.calls()).toBe(1);
    const altered = {
      ...envelope,
      payload: Buffer.from(Buffer.from(envelope.payload, 'base64').toString().replace('"n":1', '"n":2')).toString('base64'),
    };
    expect(cached.verify(altered)).toMatchObject({ verified: false, reason: 'bad_signature' });
    expect(inner.calls()).toBe(2);
  });

  it('verifies an envelope given as stored JSON text once, and any altered text afresh', () => {
    const inner = counting(createVerifier([publicJwkOf(privateKey)]));
    const cached = createCachingVerifier(inner.verifier);
    const json = JSON.stringify(envelope);
    expect(cached.verifyJson(json).verified).toBe(true);
    expect(cached.verify(envelope).verified).toBe(true);
    expect(inner.calls()).toBe(1);
    const forged = JSON.stringify({ ...envelope, signatures: [{ ...envelope.signatures[0], sig: Buffer.alloc(64).toString('base64') }] });
    expect(cached.verifyJson(forged)).toMatchObject({ verified: false, reason: 'bad_signature' });
    expect(inner.calls()).toBe(2);
  });

  it('answers by the SHA-256 of the stored JSON text only what it verified, and nothing for any other text', () => {
    const inner = counting(createVerifier([publicJwkOf(privateKey)]));
    const cached = createCachingVerifier(inner.verifier);
    const json = JSON.stringify(envelope);
    const digestOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    expect(cached.rememberedBySha256(digestOf(json))).toBeUndefined();
    expect(cached.verifyJson(json).verified).toBe(true);
    expect(cached.rememberedBySha256(digestOf(json))).toMatchObject({ verified: true });
    const forged = JSON.stringify({ ...envelope, signatures: [{ ...envelope.signatures[0], sig: Buffer.alloc(64).toString('base64') }] });
    expect(cached.rememberedBySha256(digestOf(forged))).toBeUndefined();
    expect(cached.verifyJson(forged).verified).toBe(false);
    expect(cached.rememberedBySha256(digestOf(forged))).toMatchObject({ verified: false });
    expect(inner.calls()).toBe(2);
  });

  it('stays within its capacity', () => {
    const inner = counting(createVerifier([publicJwkOf(privateKey)]));
    const cached = createCachingVerifier(inner.verifier, 1);
    const other = { ...envelope, signatures: [{ ...envelope.signatures[0], keyid: 'other' }] };
    cached.verify(envelope);
    cached.verify(other);
    cached.verify(envelope);
    expect(inner.calls()).toBe(3);
  });
});
