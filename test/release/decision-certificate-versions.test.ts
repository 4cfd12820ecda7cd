import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { canonicalDigest } from '../../core/canonical-json.js';
import type { InTotoStatement } from '../../core/certificates/types.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, putGate, reviewedRelease, sha } from '../support/release-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await putGate(t, repo, { required_checks: ['ci'], require_reviewed_release: true });
});
afterAll(async () => {
  await t.close();
});

const repo = 'acme/certificate-versions';

/** The statement of a v1 execution certificate, as the code before the v2 predicates made it (frozen fixture). */
function v1Statement(): InTotoStatement {
  const pkg = JSON.parse(fs.readFileSync(new URL('../certificates/fixtures/v1-workflow-package.json', import.meta.url), 'utf8'));
  const envelope = pkg.stages[1].execution.certificates.at(-1).envelope;
  return JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
}

async function boundReleaseWith(statement: InTotoStatement, label: string) {
  const commit = sha(label);
  await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci' });
  const { release } = await reviewedRelease(t.database.db, t.admin.id, repo, commit);
  const envelope = t.deps.signer.sign(statement);
  await t.database.db('certificates').insert({
    id: randomUUID(),
    execution_id: release,
    kind: 'execution',
    theorem: 'final_output_safe',
    plan_hash: canonicalDigest(statement.predicate.tool_calls ?? null),
    prover: 'shipgate-rules/1',
    issued_at: new Date(),
    digest: canonicalDigest(envelope),
    envelope,
  });
  return { commit, release };
}

describe('the release decision and certificate predicate versions', () => {
  it('accepts a bound execution whose certificate has the v1 predicate (issued before v2) and one with v2', async () => {
    const old = v1Statement();
    expect(old.predicateType).toBe('https://shipgate.dev/attestations/final-output-safe/v1');
    const v1 = await boundReleaseWith(old, 'v1-certificate');
    expect(await decide(t, repo, v1.commit)).toMatchObject({ decision: 'SHIP', blockers: [] });

    const execution = t.deps.certifier.certifyExecution({
      executionId: randomUUID(),
      output: 'released',
      verdict: 'compliant',
      violations: [],
      toolCallDigests: [],
      costCents: 0,
      policy: { name: 'default', version: 1, digest: 'cd'.repeat(32) },
      upstream: [],
      prev: null,
    });
    const current = JSON.parse(Buffer.from(execution.envelope.payload, 'base64').toString('utf8')) as InTotoStatement;
    expect(current.predicateType).toBe('https://shipgate.dev/attestations/final-output-safe/v2');
    const v2 = await boundReleaseWith(current, 'v2-certificate');
    expect(await decide(t, repo, v2.commit)).toMatchObject({ decision: 'SHIP', blockers: [] });
  });

  it('still refuses a v1 certificate whose payload was altered', async () => {
    const { commit, release } = await boundReleaseWith(v1Statement(), 'v1-altered');
    const [row] = await t.database.db('certificates').where({ execution_id: release });
    const altered = { ...v1Statement(), predicate: { ...v1Statement().predicate, verdict: 'non_compliant' } };
    await t.database
      .db('certificates')
      .where({ id: row.id })
      .update({ envelope: { ...row.envelope, payload: Buffer.from(JSON.stringify(altered)).toString('base64') } });
    expect((await decide(t, repo, commit)).blockers).toEqual([
      expect.objectContaining({ code: 'certificate_invalid', component: `execution:${release}` }),
    ]);
  });
});
