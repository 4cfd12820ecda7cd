import { randomUUID } from 'node:crypto';
import { canonicalDigest } from '../../core/canonical-json.js';
import type { CachingVerifier } from '../../core/release/certificate-validity.js';
import { readCommitState } from '../../core/release/read-commit-state.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, putGate, reviewedRelease, sha } from '../support/release-api.js';

// A commit polled with nothing changed is read as the same frozen facts and judged workflows
// (db/stores/release/commit-state.ts, core/release/read-commit-state.ts), so its remembered judgement is found by
// identity; anything that changes them is read and judged anew at once.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await putGate(t, repo, { required_checks: ['ci'], require_reviewed_release: true });
});
afterAll(async () => {
  await t.close();
});

const repo = 'acme/commit-facts-shared';

/** A commit with a check run and a reviewed release whose release stage carries an execution certificate. */
async function boundCommit(label: string) {
  const commit = sha(label);
  await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci' });
  const { release } = await reviewedRelease(t.database.db, t.admin.id, repo, commit);
  const statement = { _type: 'https://in-toto.io/Statement/v1', subject: [], predicateType: 'x', predicate: {} };
  const envelope = t.deps.signer.sign(statement as never);
  await t.database.db('certificates').insert({
    id: randomUUID(),
    execution_id: release,
    kind: 'execution',
    theorem: 'final_output_safe',
    plan_hash: canonicalDigest(null),
    prover: 'shipgate-rules/1',
    issued_at: new Date(),
    digest: canonicalDigest(envelope),
    envelope,
  });
  return commit;
}

const certificateValid = (state: Awaited<ReturnType<typeof readCommitState>>) =>
  state.workflows.flatMap((w) => w.executions.map((e) => e.certificate_valid));

describe("a commit's state read again", () => {
  it('is the same frozen evidence and workflows while nothing changes, and new ones the moment something does', async () => {
    const commit = await boundCommit('shared-facts');
    const first = await readCommitState(t.deps.release, repo, commit);
    const again = await readCommitState(t.deps.release, repo, commit);
    expect(again.evidence).toBe(first.evidence);
    expect(again.workflows).toBe(first.workflows);
    expect(Object.isFrozen(again.workflows)).toBe(true);

    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'lint', conclusion: 'failure' });
    const changed = await readCommitState(t.deps.release, repo, commit);
    expect(changed.evidence).not.toBe(first.evidence);
    expect(changed.evidence.checkRuns.map((c) => c.name).sort()).toEqual(['ci', 'lint']);
  });

  it('judges the workflows anew when a certificate verifies otherwise, though nothing stored changed', async () => {
    const commit = await boundCommit('shared-validity');
    // The statement above is signed by the service's key, but it is no execution certificate: it does not verify.
    const refused = await readCommitState(t.deps.release, repo, commit);
    expect(certificateValid(refused)).toContain(false);
    const accepting: CachingVerifier = {
      ...t.deps.release.cachingVerifier,
      rememberedBySha256: () => ({ verified: true }) as never,
      verifyJson: () => ({ verified: true }) as never,
    };
    const accepted = await readCommitState({ ...t.deps.release, cachingVerifier: accepting }, repo, commit);
    expect(certificateValid(accepted)).not.toContain(false);
    expect(certificateValid(await readCommitState(t.deps.release, repo, commit))).toContain(false);
  });
});
