import { generateKeyPairSync } from 'node:crypto';
import { canonicalDigest, canonicalJson, sha256Hex } from '../../core/canonical-json.js';
import { createSigner } from '../../core/certificates/create-signer.js';
import { createVerifier } from '../../core/certificates/create-verifier.js';
import { buildPromotionStatement, certifyPromotion } from '../../core/certificates/promotion-statement.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { toolCallDigest } from '../../core/certificates/tool-call-digest.js';
import { specVerify } from './support/independent-dsse.js';
import { certifiedRun, permissions, policy } from './support/run-fixture.js';
import { promotionFacts } from './support/promotion-facts.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('tool-call certificates', () => {
  const run = certifiedRun();
  const [first, second] = run.certificates;

  it('are in-toto statements over the plan hash, verified by an independent DSSE verifier', () => {
    const call = run.toolCalls[0];
    const planHash = sha256Hex(canonicalJson({ tool: call.tool, arguments: call.arguments, capabilities: permissions }));
    expect(specVerify(first.envelope, [run.jwk])).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: `execution/${run.executionId}/tool-call/1`, digest: { sha256: planHash } }],
      predicateType: 'https://shipgate.dev/attestations/action-safe/v2',
      predicate: {
        theorem: 'action_safe',
        execution_id: run.executionId,
        seq: 1,
        tool: 'repo_read_file',
        capability: 'repo:read',
        verified_properties: ['capability_granted', 'arguments_valid'],
        policy: { name: 'hipaa', uri: 'urn:shipgate:policy:hipaa:1', digest: { sha256: policy.digest }, annotations: { version: 1 } },
        result_digest: { sha256: sha256Hex('output 1') },
        prev: null,
        issued_at: first.issued_at,
      },
    });
    expect(first).toMatchObject({
      kind: 'tool_call',
      theorem: 'action_safe',
      plan_hash: planHash,
      prover: 'shipgate-rules/1',
      verified_properties: ['capability_granted', 'arguments_valid'],
    });
    expect(first.id).toMatch(UUID);
    expect(new Date(first.issued_at).toISOString()).toBe(first.issued_at);
  });

  it('carry the digest of their envelope, which the next certificate names as prev', () => {
    expect(first.digest).toBe(sha256Hex(canonicalJson(first.envelope)));
    expect((specVerify(second.envelope, [run.jwk]) as { predicate: { prev: unknown } }).predicate.prev).toEqual({ sha256: first.digest });
  });
});

describe('execution certificates', () => {
  it('certify the output digest, verdict and violations, every tool-call entry in order, cost and upstream lineage', () => {
    const upstream = [{ execution_id: '22222222-2222-4222-8222-222222222222', digest: 'ef'.repeat(32) }];
    const run = certifiedRun(undefined, upstream);
    const cert = run.certificates.at(-1)!;
    const statement = specVerify(cert.envelope, [run.jwk]) as {
      subject: unknown;
      predicateType: string;
      predicate: Record<string, unknown>;
    };
    expect(statement.subject).toEqual([{ name: `execution/${run.executionId}/output`, digest: { sha256: sha256Hex('final answer') } }]);
    expect(statement.predicateType).toBe('https://shipgate.dev/attestations/final-output-safe/v2');
    expect(statement.predicate).toMatchObject({
      theorem: 'final_output_safe',
      execution_id: run.executionId,
      verdict: 'compliant',
      violations: [],
      cost_cents: 42,
      policy: { name: 'hipaa', uri: 'urn:shipgate:policy:hipaa:1', digest: { sha256: policy.digest } },
      tool_calls: run.toolCalls.map((c) => ({ sha256: canonicalDigest(c) })),
      upstream: [
        {
          name: 'execution/22222222-2222-4222-8222-222222222222',
          uri: 'urn:shipgate:execution:22222222-2222-4222-8222-222222222222',
          digest: { sha256: 'ef'.repeat(32) },
        },
      ],
      prev: { sha256: run.certificates[2].digest },
    });
    expect(statement.predicate).not.toHaveProperty('materials');
    expect(statement.predicate.tool_calls as string[]).toHaveLength(4); // the denied call too
    expect(cert).toMatchObject({
      kind: 'execution',
      theorem: 'final_output_safe',
      plan_hash: canonicalDigest(run.toolCalls.map(toolCallDigest)),
    });
    expect(cert.verified_properties).toContain('upstream_lineage_bound');
  });

  it('sign the violations behind a non-compliant verdict as listed, in their order', () => {
    const violations = ['denied_call:3:capability_not_granted', 'output_rule:secrets:github_token:tool_call:4'];
    const run = certifiedRun(undefined, [], undefined, { verdict: 'non_compliant', violations });
    const statement = specVerify(run.certificates.at(-1)!.envelope, [run.jwk]) as { predicate: Record<string, unknown> };
    expect(statement.predicate).toMatchObject({ verdict: 'non_compliant', violations });
  });
});

describe('promotion certificates', () => {
  const facts = promotionFacts('https://shipgate.example.com/api/v1/releases/gates/acme/api?version=3');

  it('are SLSA verification summaries of the commit under the gate version (uri and digest), with a URI-named extension', () => {
    expect(buildPromotionStatement(facts)).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: 'acme/api', digest: { gitCommit: 'a'.repeat(40) } }],
      predicateType: 'https://slsa.dev/verification_summary/v1',
      predicate: {
        verifier: { id: 'https://shipgate.dev/release-gate' },
        timeVerified: facts.timeVerified,
        resourceUri: `git+https://github.com/acme/api@${'a'.repeat(40)}`,
        policy: { uri: facts.gateUri, digest: { sha256: facts.gateDigest } },
        verificationResult: 'PASSED',
        verifiedLevels: ['SHIPGATE_RELEASE_GATE_PASSED'],
        'https://shipgate.dev/attestations/promotion/v1': {
          snapshot_id: facts.snapshotId,
          evidence_digest: { sha256: facts.evidenceDigest },
          status: 'attested',
          release_label: 'v1.2.0',
        },
      },
    });
  });

  it('are signed and verify independently', () => {
    const privateKey = generateKeyPairSync('ed25519').privateKey;
    const cert = certifyPromotion(createSigner(privateKey), facts);
    expect(cert).toMatchObject({ kind: 'promotion', theorem: 'release_verified', prover: 'shipgate-rules/1' });
    expect(specVerify(cert.envelope, [publicJwkOf(privateKey)])).toEqual(buildPromotionStatement(facts));
    expect(createVerifier([publicJwkOf(privateKey)]).verify(cert.envelope).verified).toBe(true);
  });
});
