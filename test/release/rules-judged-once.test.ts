import { decideRelease } from '../../core/release/decide-release.js';
import type { PullRequestFacts, ReviewFacts } from '../../core/release/authorship.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, putGate, sha } from '../support/release-api.js';
import { reviewsOf } from './support/review-facts.js';

// A polled commit's rules are judged once while its stored facts and gate stay the same, and anew the moment either
// changes (core/release/rule-findings.ts; docs/benchmarks.md): each test changes one thing the rules read, as the
// App's job or a gate author would, and expects the next decision to show it.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const RULE = {
  name: 'infra needs two',
  if: { authored_by: 'any' as const, paths: ['infra/**'] },
  require: { approvals: 2, approvers: { users: ['ana', 'bob'], codeowners: false }, checks: [], evidence: [] },
};

/** A person's pull request at `head` touching infra/main.tf, with these reviews, as the App's job stores it. */
function factsOf(head: string, reviews: ReviewFacts[]): PullRequestFacts {
  const person = { login: 'dev', type: 'User', name: 'dev', email: 'dev@example.com' };
  return {
    number: 7,
    head_sha: head,
    author: { login: 'dev', type: 'User' },
    assignees: [],
    commits: [{ sha: head, author: person, committer: person, coauthors: [] }],
    reviews,
    base_ref: 'main',
    labels: [],
    files: {
      status: 'read',
      reason: null,
      total: 2,
      files: [
        { path: 'infra/main.tf', previous_path: null, status: 'modified', additions: 1, deletions: 0 },
        { path: 'docs/a.md', previous_path: null, status: 'modified', additions: 1, deletions: 0 },
      ],
    },
    codeowners: { status: 'absent' },
    teams: {},
  };
}

/** The pull request, and a check run so that the commit has evidence. */
async function pullRequest(repo: string, head: string, reviews: ReviewFacts[]) {
  await checkRun(t, { repo_root: repo, commit_sha: head, name: 'ci' });
  await t.database.db('pull_request_authorship').insert({
    repo_root: repo,
    commit_sha: head,
    number: 7,
    status: 'read',
    facts: JSON.stringify(factsOf(head, reviews)),
    commit_shas: [head],
  });
}

const storeReviews = (repo: string, head: string, reviews: ReviewFacts[]) =>
  t.database
    .db('pull_request_authorship')
    .where({ repo_root: repo, commit_sha: head })
    .update({ facts: JSON.stringify(factsOf(head, reviews)) });

const ruleOf = async (repo: string, head: string) => (await decide(t, repo, head)).authorship.rules[0];

describe("a polled decision's rules", () => {
  it('are judged once while nothing changes: two polls share the judged approvals', async () => {
    const [repo, head] = ['acme/rules-once', sha('rules-once')];
    await putGate(t, repo, { rules: [RULE] });
    await pullRequest(repo, head, [reviewsOf(head)('ana', 'APPROVED')]);
    // The first decision stores the commit's snapshot, which the second reads; the third is served from the cache.
    await decideRelease(t.deps.release, repo, head);
    const first = await decideRelease(t.deps.release, repo, head);
    const again = await decideRelease(t.deps.release, repo, head);
    expect(again.decision.authorship.rules![0].approvals).toBe(first.decision.authorship.rules![0].approvals);
    // Nothing changed, so the whole judgement is the last one (core/release/remembered-judgement.ts).
    expect(again.decision.authorship.rules![0]).toBe(first.decision.authorship.rules![0]);
    expect(again.decision.explanation).toBe(first.decision.explanation);
    expect(again.decision).toEqual({ ...first.decision, evaluated_at: again.decision.evaluated_at });
  });

  it('see a new approval, a change requested and a dismissal as soon as the App stores them', async () => {
    const [repo, head] = ['acme/rules-reviews', sha('rules-reviews')];
    const review = reviewsOf(head);
    const ana = review('ana', 'APPROVED');
    await putGate(t, repo, { rules: [RULE] });
    await pullRequest(repo, head, [ana]);
    expect(await ruleOf(repo, head)).toMatchObject({ met: false, missing: 'needs 2 approvals from @ana or @bob; has 1: @ana' });
    expect((await ruleOf(repo, head)).met).toBe(false);

    await storeReviews(repo, head, [ana, review('bob', 'APPROVED')]);
    const approved = await decide(t, repo, head);
    expect(approved.authorship.rules[0]).toMatchObject({ met: true, missing: null });
    expect(approved.blockers).toEqual([]);

    await storeReviews(repo, head, [ana, review('bob', 'APPROVED'), review('bob', 'CHANGES_REQUESTED')]);
    const disapproved = await decide(t, repo, head);
    expect(disapproved.authorship.rules[0]).toMatchObject({ met: false, disapproved_by: ['bob'] });
    expect(disapproved.blockers.map((b: { code: string }) => b.code)).toContain('rule_disapproved');
  });

  it('see a new gate version at once', async () => {
    const [repo, head] = ['acme/rules-gate', sha('rules-gate')];
    const review = reviewsOf(head);
    await putGate(t, repo, { rules: [RULE] });
    await pullRequest(repo, head, [review('ana', 'APPROVED'), review('bob', 'APPROVED')]);
    expect((await ruleOf(repo, head)).met).toBe(true);
    expect((await ruleOf(repo, head)).met).toBe(true);

    await putGate(t, repo, { rules: [{ ...RULE, require: { ...RULE.require, approvals: 3 } }] });
    expect(await ruleOf(repo, head)).toMatchObject({ met: false, missing: 'needs 3 approvals from @ana or @bob; has 2: @ana, @bob' });
    await putGate(t, repo, { rules: [{ ...RULE, if: { ...RULE.if, paths: ['db/**'] } }] });
    expect((await decide(t, repo, head)).authorship.rules).toBeUndefined();
  });

  it("see the rule's check recorded and fail, as the gate's own checks do", async () => {
    const [repo, head] = ['acme/rules-checks', sha('rules-checks')];
    const review = reviewsOf(head);
    await putGate(t, repo, { rules: [{ ...RULE, require: { ...RULE.require, checks: ['plan'] } }] });
    await pullRequest(repo, head, [review('ana', 'APPROVED'), review('bob', 'APPROVED')]);
    expect((await ruleOf(repo, head)).met).toBe(false);
    await checkRun(t, { repo_root: repo, commit_sha: head, name: 'plan' });
    expect(await ruleOf(repo, head)).toMatchObject({ met: true, missing: null });
    await checkRun(t, { repo_root: repo, commit_sha: head, name: 'plan', conclusion: 'failure' });
    expect((await ruleOf(repo, head)).met).toBe(false);
  });
});
