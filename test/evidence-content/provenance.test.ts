import { calculateJwkThumbprint } from 'jose';
import { jwkThumbprint } from '../../core/evidence-content/provenance-keys.js';
import { bytesOf, envelopeOf, fixtureJson, generateTestKey, refusal, summaryOf } from './support/evidence-fixtures.js';

const statement = fixtureJson('slsa-provenance-statement.json');
const COMMIT = '4f2a9c1e7b3d5a6f8e0c2b4d6a8f0e1c3b5d7a9f';

describe('SLSA provenance v1: a bare statement', () => {
  it('reads builder, build type, subjects and the source commit', async () => {
    expect(await summaryOf('slsa-provenance-statement.json')).toEqual({
      format: 'provenance',
      envelope: false,
      predicate_type: 'https://slsa.dev/provenance/v1',
      builder_id: 'https://github.com/actions/runner/github-hosted',
      build_type: 'https://actions.github.io/buildtypes/workflow/v1',
      subjects: [{ name: 'shop-2.4.0.tgz', digest: { sha256: '8d3f9a1c5e2b7046a1f09c3e6d5b48a2f7c1e0d9b6a5f4e3d2c1b0a998877665' } }],
      subjects_count: 1,
      source_commits: [COMMIT],
      signatures: 0,
      verified_keys: [],
    });
  });

  it('lower-cases and deduplicates gitCommit digests; keeps 100 subjects and counts them all', async () => {
    const predicate = structuredClone(statement.predicate) as { buildDefinition: { resolvedDependencies: unknown[] } };
    predicate.buildDefinition.resolvedDependencies = [
      { uri: 'git+https://github.com/acme/shop', digest: { gitCommit: COMMIT.toUpperCase() } },
      { uri: 'git+https://github.com/acme/shop', digest: { gitCommit: COMMIT } },
      { uri: 'https://registry.npmjs.org/x', digest: { sha256: 'ab'.repeat(32) } },
    ];
    const subject = Array.from({ length: 120 }, (_, i) => ({ name: `f${i}`, digest: { sha256: 'cd'.repeat(32) } }));
    const summary = await summaryOf({ ...statement, predicate, subject });
    expect(summary).toMatchObject({ source_commits: [COMMIT], subjects_count: 120 });
    expect((summary as { subjects: unknown[] }).subjects).toHaveLength(100);
  });

  it('refuses another statement type, predicate type or a missing builder, with the loc', async () => {
    expect(await refusal(bytesOf({ ...statement, _type: 'https://in-toto.io/Statement/v0.1' }))).toEqual({
      loc: ['_type'],
      message: 'An in-toto Statement v1 has _type https://in-toto.io/Statement/v1.',
    });
    const other = { ...statement, predicateType: 'https://spdx.dev/Document' };
    expect((await refusal(bytesOf(other))).loc).toEqual(['predicateType']);
    const predicate = structuredClone(statement.predicate) as { runDetails: Record<string, unknown> };
    predicate.runDetails.builder = {};
    expect((await refusal(bytesOf({ ...statement, predicate }))).loc).toEqual(['predicate', 'runDetails', 'builder', 'id']);
    expect((await refusal(bytesOf({ ...statement, subject: [] }))).loc).toEqual(['subject']);
    expect((await refusal(bytesOf({ hello: 'world' }), 'provenance')).loc).toEqual(['_type']);
  });
});

describe('SLSA provenance v1 in a DSSE envelope', () => {
  it('verifies an Ed25519 signature over the PAE and records the key’s RFC 7638 thumbprint and kid', async () => {
    const key = generateTestKey('ed25519', 'release-key-2026');
    const other = generateTestKey('ed25519');
    const summary = await summaryOf(envelopeOf(statement, [key]), null, [other.jwk, key.jwk]);
    const thumbprint = await calculateJwkThumbprint(key.jwk as Parameters<typeof calculateJwkThumbprint>[0]);
    expect(jwkThumbprint(key.jwk)).toBe(thumbprint);
    expect(summary).toMatchObject({
      envelope: true,
      signatures: 1,
      verified_keys: [thumbprint, 'release-key-2026'],
      builder_id: 'https://github.com/actions/runner/github-hosted',
      source_commits: [COMMIT],
    });
  });

  it.each([['p256'], ['p256-raw'], ['rsa']] as const)('verifies a %s signature', async (kind) => {
    const key = generateTestKey(kind);
    const summary = await summaryOf(envelopeOf(statement, [key]), 'provenance', [key.jwk]);
    const thumbprint = await calculateJwkThumbprint(key.jwk as Parameters<typeof calculateJwkThumbprint>[0]);
    expect(summary).toMatchObject({ verified_keys: [thumbprint] });
  });

  it('verifies none when the key is not given, the payload was changed, or the signature is over the bare payload', async () => {
    const key = generateTestKey('ed25519');
    expect(await summaryOf(envelopeOf(statement, [key]), null, [generateTestKey('ed25519').jwk])).toMatchObject({
      signatures: 1,
      verified_keys: [],
    });
    const tampered = envelopeOf(statement, [key]);
    tampered.payload = bytesOf({ ...statement, subject: [{ name: 'evil', digest: { sha256: '00'.repeat(32) } }] }).toString('base64');
    expect(await summaryOf(tampered, null, [key.jwk])).toMatchObject({ verified_keys: [] });
    const bare = envelopeOf(statement, []);
    bare.signatures = [{ sig: key.sign(bytesOf(statement)).toString('base64') }];
    expect(await summaryOf(bare, null, [key.jwk])).toMatchObject({ verified_keys: [] });
  });

  it('counts every signature and records each key that verified', async () => {
    const a = generateTestKey('ed25519', 'a');
    const b = generateTestKey('p256', 'b');
    const summary = (await summaryOf(envelopeOf(statement, [a, b]), null, [a.jwk, b.jwk])) as { verified_keys: string[] };
    expect(summary).toMatchObject({ signatures: 2 });
    expect(summary.verified_keys).toEqual([jwkThumbprint(a.jwk), 'a', jwkThumbprint(b.jwk), 'b']);
  });

  it('refuses another payload type, a payload that is not base64 or not JSON, and names the statement’s loc under payload', async () => {
    const key = generateTestKey('ed25519');
    const wrongType = envelopeOf(statement, [key], 'application/json');
    expect((await refusal(bytesOf(wrongType))).loc).toEqual(['payloadType']);
    const notBase64 = { ...envelopeOf(statement, [key]), payload: 'not base64!' };
    expect(await refusal(bytesOf(notBase64))).toEqual({ loc: ['payload'], message: 'The envelope’s payload is not standard base64.' });
    const notJson = { ...envelopeOf(statement, [key]), payload: Buffer.from('{"_type":').toString('base64') };
    expect((await refusal(bytesOf(notJson))).loc).toEqual(['payload']);
    const noSignatures = { ...envelopeOf(statement, [key]), signatures: [] };
    expect((await refusal(bytesOf(noSignatures))).loc).toEqual(['signatures']);
    const otherPredicate = envelopeOf({ ...statement, predicateType: 'https://slsa.dev/provenance/v0.2' }, [key]);
    expect((await refusal(bytesOf(otherPredicate))).loc).toEqual(['payload', 'predicateType']);
    const noBuildType = structuredClone(statement) as { predicate: { buildDefinition: Record<string, unknown> } };
    delete noBuildType.predicate.buildDefinition.buildType;
    expect((await refusal(bytesOf(envelopeOf(noBuildType, [key])))).loc).toEqual(['payload', 'predicate', 'buildDefinition', 'buildType']);
  });
});
