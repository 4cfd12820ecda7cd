import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import { createSigner } from '../../core/certificates/create-signer.js';
import { buildPromotionStatement, certifyPromotion } from '../../core/certificates/promotion-statement.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { resourceUris } from '../../core/certificates/resource-uris.js';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import { digestSetProblems, resourceDescriptorProblems, statementProblems, verificationSummaryProblems } from './support/in-toto-shapes.js';
import { signedPackage } from './support/package-fixture.js';
import { certifiedRun } from './support/run-fixture.js';
import { sigstoreVerify } from './support/sigstore-verify.js';
import { promotionFacts } from './support/promotion-facts.js';

const PUBLIC_URL = 'https://shipgate.example.com';
const upstreamId = '22222222-2222-4222-8222-222222222222';
type Predicate = Record<string, unknown>;
type Envelope = Parameters<typeof sigstoreVerify>[0];
/** A workflow package made by the code before the v2 predicates, frozen (commit 3bee5ba). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the package is walked freely
const v1Package: any = JSON.parse(fs.readFileSync(new URL('./fixtures/v1-workflow-package.json', import.meta.url), 'utf8'));

/** What in a tool-call or execution predicate breaks the in-toto shapes: every digest a DigestSet, every pointer a ResourceDescriptor with a URI. */
function predicateProblems(predicate: Predicate): string[] {
  const problems = [...resourceDescriptorProblems(predicate.policy, 'policy')];
  if (!(predicate.policy as Predicate)?.uri) problems.push('policy: no uri');
  if (predicate.prev !== null) problems.push(...digestSetProblems(predicate.prev, 'prev'));
  if (predicate.result_digest !== undefined) problems.push(...digestSetProblems(predicate.result_digest, 'result_digest'));
  if (predicate.materials !== undefined) problems.push('materials: SLSA v0.2 vocabulary');
  for (const [i, digest] of ((predicate.tool_calls as unknown[]) ?? []).entries())
    problems.push(...digestSetProblems(digest, `tool_calls[${i}]`));
  for (const [i, rd] of ((predicate.upstream as Predicate[]) ?? []).entries()) {
    problems.push(...resourceDescriptorProblems(rd, `upstream[${i}]`));
    if (!rd?.uri || !rd.digest) problems.push(`upstream[${i}]: needs uri and digest`);
  }
  return problems;
}

describe('certificates as other people verify them', () => {
  const run = certifiedRun(undefined, [{ execution_id: upstreamId, digest: 'ef'.repeat(32) }], resourceUris(PUBLIC_URL));

  it("verify with sigstore's verifier (@sigstore/verify, offline, public key only) and are rejected by it once tampered", () => {
    for (const cert of run.certificates) {
      const statement = sigstoreVerify(cert.envelope, [run.jwk]) as { predicateType: string };
      expect(statement.predicateType).toMatch(/^https:\/\/shipgate\.dev\/attestations\/(action-safe|final-output-safe)\/v2$/);
      const edited = Buffer.from(cert.envelope.payload, 'base64').toString('utf8').replace('"issued_at":"2', '"issued_at":"3');
      const tampered = { ...cert.envelope, payload: Buffer.from(edited).toString('base64') };
      expect(tampered.payload).not.toBe(cert.envelope.payload);
      expect(() => sigstoreVerify(tampered, [run.jwk])).toThrow(/signature/i);
    }
  });

  it('are in-toto Statements whose digests are DigestSets and whose pointers are ResourceDescriptors with real URIs', () => {
    for (const cert of run.certificates) {
      const statement = sigstoreVerify(cert.envelope, [run.jwk]) as { predicate: Predicate };
      expect(statementProblems(statement)).toEqual([]);
      expect(predicateProblems(statement.predicate)).toEqual([]);
    }
    const final = sigstoreVerify(run.certificates.at(-1)!.envelope, [run.jwk]) as { predicate: Predicate };
    expect(final.predicate.policy).toMatchObject({ uri: `${PUBLIC_URL}/api/v1/policies/hipaa?version=1` });
    expect(final.predicate.upstream).toEqual([
      { name: `execution/${upstreamId}`, uri: `${PUBLIC_URL}/api/v1/executions/${upstreamId}`, digest: { sha256: 'ef'.repeat(32) } },
    ]);
  });

  it('name resources by URN when SHIPGATE_PUBLIC_URL is unset', () => {
    const uris = resourceUris(undefined);
    expect(uris.execution(upstreamId)).toBe(`urn:shipgate:execution:${upstreamId}`);
    expect(uris.policy({ name: 'legal privilege', version: 2 })).toBe('urn:shipgate:policy:legal%20privilege:2');
    expect(uris.gate('acme/api', 3)).toBe('urn:shipgate:gate:acme/api:3');
    expect(resourceUris(PUBLIC_URL).gate('acme/api', 3)).toBe(`${PUBLIC_URL}/api/v1/releases/gates/acme/api?version=3`);
    expect(resourceUris(PUBLIC_URL).gate('acme/api', 0)).toBe('urn:shipgate:gate:acme/api:0'); // the built-in default has no URL
    const urnRun = certifiedRun(undefined, [{ execution_id: upstreamId, digest: 'ef'.repeat(32) }]);
    const statement = sigstoreVerify(urnRun.certificates.at(-1)!.envelope, [urnRun.jwk]) as { predicate: Predicate };
    expect(predicateProblems(statement.predicate)).toEqual([]);
  });

  it('the v1 predicates (made before the change) do not meet these shapes: the check is not vacuous', () => {
    const envelope = v1Package.stages[1].execution.certificates.at(-1).envelope as Envelope;
    const statement = sigstoreVerify(envelope, v1Package.public_keys) as { predicate: Predicate };
    expect(statementProblems(statement)).toEqual([]);
    expect(predicateProblems(statement.predicate)).toEqual(
      expect.arrayContaining(['prev: not a DigestSet object', 'materials: SLSA v0.2 vocabulary', 'tool_calls[0]: not a DigestSet object']),
    );
  });
});

describe('promotion verification summaries as other people verify them', () => {
  const facts = promotionFacts(resourceUris(PUBLIC_URL).gate('acme/api', 3));

  it('meet VSA v1 (policy uri and digest, URI-named extensions, no private-scheme inputs) and verify with @sigstore/verify', () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const cert = certifyPromotion(createSigner(key), facts);
    const statement = sigstoreVerify(cert.envelope, [publicJwkOf(key)]) as { predicate: Predicate };
    expect(statement).toEqual(buildPromotionStatement(facts));
    expect(statementProblems(statement)).toEqual([]);
    expect(verificationSummaryProblems(statement.predicate)).toEqual([]);
    expect(statement.predicate).not.toHaveProperty('inputAttestations');
    // The summary as it was before: the checker names each problem the issue reported.
    const { policy: _policy, ...rest } = statement.predicate;
    expect(
      verificationSummaryProblems({
        ...rest,
        policy: { digest: { sha256: facts.gateDigest } },
        shipgate: {},
        inputAttestations: [{ uri: 'shipgate:snapshot/x', digest: { sha256: 'ab' } }],
      }),
    ).toEqual(expect.arrayContaining(['policy.uri: required', 'shipgate: extension field not URI-named']));
  });
});

describe('audit packages as other people verify them', () => {
  it("the manifest verifies with @sigstore/verify under the package's key", () => {
    const { pkg, publicKeys } = signedPackage();
    expect(statementProblems(sigstoreVerify(pkg.manifest.envelope, publicKeys))).toEqual([]);
  });
});

describe('certificates issued before the change (v1 predicates)', () => {
  it('still verify: signatures, chains, tool calls and the lineage signed as materials', () => {
    expect(verifyPackage(v1Package, v1Package.public_keys)).toEqual({
      ok: true,
      failures: [],
      manifestKeyid: expect.any(String),
      certificatesChecked: 8,
      // Its records carry no `violations` field, so nothing is left unchecked to note.
      notes: [],
    });
  });

  it('still catch a lineage that the v1 materials do not sign, and a broken v1 chain', () => {
    const edited = JSON.parse(JSON.stringify(v1Package));
    edited.lineage[1].upstream[0].certificate_digest = '0'.repeat(64);
    edited.stages[0].execution.certificates.splice(1, 1);
    const reasons = verifyPackage(edited, edited.public_keys).failures.map((f) => f.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        "stage summarise: its execution certificate's signed upstream differs from the lineage's upstream certificate digests",
        'broken_chain',
      ]),
    );
  });
});
