import { generateKeyPairSync } from 'node:crypto';
import { canonicalDigest } from '../../core/canonical-json.js';
import { createVerifier } from '../../core/certificates/create-verifier.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import type { Certificate } from '../../core/certificates/types.js';
import { verifyCertificateChain } from '../../core/certificates/verify-certificate-chain.js';
import { certifiedRun } from './support/run-fixture.js';

const run = certifiedRun();
const verifier = createVerifier([run.jwk]);
const clone = <T>(v: T): T => structuredClone(v);

function failures(certs: Certificate[], toolCalls = run.toolCalls) {
  return verifyCertificateChain(certs, verifier, toolCalls)
    .filter((r) => !r.verified)
    .map((r) => [r.id, r.reason]);
}

describe('verifyCertificateChain', () => {
  it('verifies every certificate of an intact run, whatever order they are listed in', () => {
    const results = verifyCertificateChain([...run.certificates].reverse(), verifier, run.toolCalls);
    expect(results).toEqual([...run.certificates].reverse().map((c) => ({ id: c.id, verified: true })));
  });

  it.each([0, 1, 2])('detects the removal of tool-call certificate %i at its successor', (removed) => {
    const certs = run.certificates.filter((_, i) => i !== removed);
    const successor = run.certificates[removed + 1];
    const result = verifyCertificateChain(certs, verifier, run.toolCalls).find((r) => r.id === successor.id)!;
    expect(result).toMatchObject({ verified: false, reason: 'broken_chain' });
    expect(result.detail).toMatch(/does not link to/);
  });

  it('names the altered certificate and breaks the chain after it', () => {
    const certs = clone(run.certificates);
    const payload = Buffer.from(certs[1].envelope.payload, 'base64');
    payload[payload.length - 5] ^= 1;
    certs[1].envelope.payload = payload.toString('base64');
    certs[1].digest = canonicalDigest(certs[1].envelope);
    expect(failures(certs)).toEqual([
      [certs[1].id, 'bad_signature'],
      [certs[2].id, 'broken_chain'],
    ]);
  });

  it('detects a stored digest or record field that differs from the signed envelope', () => {
    const digest = clone(run.certificates);
    digest[0].digest = 'ff'.repeat(32);
    expect(failures(digest)).toEqual([[digest[0].id, 'digest_mismatch']]);
    const record = clone(run.certificates);
    record[0].plan_hash = 'ff'.repeat(32);
    record[3].verified_properties = ['anything'];
    expect(failures(record)).toEqual([
      [record[0].id, 'record_mismatch'],
      [record[3].id, 'record_mismatch'],
    ]);
  });

  it('detects tool-call entries that differ from what the execution certificate lists', () => {
    const executionId = run.certificates[3].id;
    const edited = clone(run.toolCalls);
    edited[2].reason = null; // hide a denial
    expect(failures(run.certificates, edited)).toEqual([[executionId, 'tool_calls_mismatch']]);
    expect(
      failures(
        run.certificates,
        run.toolCalls.filter((c) => c.seq !== 3),
      ),
    ).toEqual([[executionId, 'tool_calls_mismatch']]);
    const output = clone(run.toolCalls);
    output[0].result_digest = 'ff'.repeat(32);
    expect(failures(run.certificates, output)).toEqual([
      [run.certificates[0].id, 'tool_call_mismatch'],
      [executionId, 'tool_calls_mismatch'],
    ]);
  });

  it('verifies certificates signed with a retired key and refuses unknown keys', () => {
    const current = publicJwkOf(generateKeyPairSync('ed25519').privateKey);
    const withRetired = createVerifier([current, { ...run.jwk, status: 'retired' }]);
    expect(verifyCertificateChain(run.certificates, withRetired, run.toolCalls).every((r) => r.verified)).toBe(true);
    const results = verifyCertificateChain(run.certificates, createVerifier([current]));
    expect(results.map((r) => r.reason)).toEqual(['unknown_key', 'unknown_key', 'unknown_key', 'unknown_key']);
  });

  it('chains each execution of a mixed list on its own', () => {
    const other = certifiedRun('22222222-2222-4222-8222-222222222222');
    const both = createVerifier([run.jwk, other.jwk]);
    const results = verifyCertificateChain([...run.certificates, ...other.certificates.slice(1)], both);
    expect(results.filter((r) => !r.verified).map((r) => [r.id, r.reason])).toEqual([[other.certificates[1].id, 'broken_chain']]);
  });
});
