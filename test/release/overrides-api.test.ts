import { jest } from '@jest/globals';
import { Buffer } from 'node:buffer';
import { useRepoAccessStack } from '../accounts/support/repo-access-stack.js';
import { insertAgentSession, insertWorkflow } from '../accounts/support/repo-bound-rows.js';
import { checkRun, decide, insertExecution, putGate, sha } from '../support/release-api.js';
import type { TestUser } from '../support/test-app.js';
import { storeReadPullRequest } from './support/stored-pull-request.js';

// docs/release-gate.md, "Overrides". SHIPGATE_REPO_ACCESS=github: maintain is GitHub's permission on acme/api.
const stack = useRepoAccessStack('github');
const REPO = 'acme/api';
const REASON = 'Outage fix: the build check is flaky on the runner, verified by hand.';

/** A read pull request whose head is `head`, opened and committed by `author`, with `labels`. */
const pullRequest = (number: number, head: string, author: string, labels: string[] = []) =>
  storeReadPullRequest(stack.t.database.db, REPO, { number, head, author, labels });

async function maintainer(login: string): Promise<TestUser> {
  const user = await stack.linked('APPROVER', login);
  stack.gh.app.grant(REPO, login, { role_name: 'maintain', permission: 'write' });
  return user;
}

const override = (user: TestUser, body: Record<string, unknown>) =>
  stack.t.request
    .post('/api/v1/releases/overrides')
    .set(user.auth)
    .send({ repo_root: REPO, reason: REASON, expires_in_seconds: 120, ...body });

/** Only the Date is faked: timers, pg and supertest keep real time. */
function clockAt(ms: number) {
  jest.useFakeTimers({
    now: ms,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
}

beforeAll(async () => {
  // `build` is required everywhere; rule `secure` (pull requests labelled `secure`) also needs `sast` and may not be overridden.
  await putGate(stack.t, REPO, {
    required_checks: ['build'],
    rules: [{ name: 'secure', if: { labels: ['secure'] }, require: { checks: ['sast'] }, overridable: false }] as never,
  });
});

afterEach(() => jest.useRealTimers());

describe('overrides (docs/release-gate.md, "Overrides")', () => {
  it('an independent maintainer lifts a failed check: SHIP with `overridden`, bound into the signed statement, NO_SHIP again after expiry', async () => {
    const head = sha('override-ship');
    await pullRequest(1, head, 'bob-author');
    await checkRun(stack.t, { repo_root: REPO, commit_sha: head, name: 'build', conclusion: 'failure' });
    expect((await decide(stack.t, REPO, head)).decision).toBe('NO_SHIP');

    const ana = await maintainer('ana');
    const made = await override(ana, { commit_sha: head, blockers: ['check:build'] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      state: 'active',
      created_by_login: 'ana',
      blockers: [{ code: 'required_check_failed', component: 'check:build' }],
    });

    const d = await decide(stack.t, REPO, head);
    expect(d.decision).toBe('SHIP');
    expect(d.blockers).toEqual([]);
    expect(d.overridden).toEqual([
      expect.objectContaining({
        id: made.body.id,
        by: 'ana',
        reason: REASON,
        expires_at: made.body.expires_at,
        blockers: [expect.objectContaining({ component: 'check:build' })],
      }),
    ]);
    expect(d.provenance.overrides).toEqual([expect.objectContaining({ by: 'ana', reason_digest: made.body.reason_digest })]);

    const promoted = await stack.t.request
      .post('/api/v1/releases/promote')
      .set(ana.auth)
      .send({ snapshot_id: d.snapshot_id, target_status: 'attested' });
    expect(promoted.status).toBe(201);
    const statement = JSON.parse(Buffer.from(promoted.body.attestation.payload, 'base64').toString('utf8'));
    const extension = Object.entries(statement.predicate).find(([k]) => k.startsWith('https://'))![1] as { overrides: unknown[] };
    expect(extension.overrides).toEqual([
      {
        id: made.body.id,
        by: 'ana',
        reason_digest: { sha256: made.body.reason_digest },
        expires_at: made.body.expires_at,
        blockers: [{ code: 'required_check_failed', component: 'check:build' }],
      },
    ]);

    // Past its expiry (judged against the clock at read time, nothing written meanwhile): blocked again.
    clockAt(Date.parse(made.body.expires_at) + 1000);
    const later = await decide(stack.t, REPO, head);
    expect(later.decision).toBe('NO_SHIP');
    expect(later.overridden).toEqual([]);
    expect(later.blockers.map((b: { component: string }) => b.component)).toEqual(['check:build']);
    const listed = await stack.t.request.get('/api/v1/releases/overrides').set(ana.auth).query({ repo_root: REPO });
    expect(listed.body.overrides.find((o: { id: string }) => o.id === made.body.id)).toMatchObject({ state: 'expired' });
  });

  it('a revoked override no longer lifts anything and stays listed as revoked', async () => {
    const head = sha('override-revoke');
    await pullRequest(2, head, 'bob-author');
    await checkRun(stack.t, { repo_root: REPO, commit_sha: head, name: 'build', conclusion: 'failure' });
    const ana = await maintainer('ana-revoker');
    const made = await override(ana, { commit_sha: head, blockers: ['required_check_failed'] });
    expect(made.status).toBe(201);
    expect((await decide(stack.t, REPO, head)).decision).toBe('SHIP');
    const other = await maintainer('other-maintainer');
    const revoked = await stack.t.request.delete(`/api/v1/releases/overrides/${made.body.id}`).set(other.auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ state: 'revoked', revoked_by: other.id });
    expect((await decide(stack.t, REPO, head)).decision).toBe('NO_SHIP');
    const listed = await stack.t.request.get('/api/v1/releases/overrides').set(ana.auth).query({ repo_root: REPO });
    expect(listed.body.overrides.find((o: { id: string }) => o.id === made.body.id)).toMatchObject({ state: 'revoked' });
  });

  it('refuses the change’s author, a VIEWER, an APPROVER without maintain, a blocker the commit lacks, and a rule marked overridable: false', async () => {
    const head = sha('override-refused');
    await pullRequest(3, head, 'carol-author', ['secure']);
    await checkRun(stack.t, { repo_root: REPO, commit_sha: head, name: 'build', conclusion: 'failure' });

    const author = await maintainer('carol-author');
    const byAuthor = await override(author, { commit_sha: head, blockers: ['check:build'] });
    expect(byAuthor.status).toBe(403);
    expect(byAuthor.body.detail).toMatch(/you opened its pull request \(@carol-author\).*independent/);

    const viewer = await stack.linked('VIEWER', 'vic-viewer');
    stack.gh.app.grant(REPO, 'vic-viewer', 'admin');
    const byViewer = await override(viewer, { commit_sha: head, blockers: ['check:build'] });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.detail).toMatch(/ADMIN|APPROVER/);

    const writer = await stack.linked('APPROVER', 'wes-writer');
    stack.gh.app.grant(REPO, 'wes-writer', 'write');
    const byWriter = await override(writer, { commit_sha: head, blockers: ['check:build'] });
    expect(byWriter.status).toBe(403);
    expect(byWriter.body.detail).toMatch(/maintain or admin permission on acme\/api/);

    const ana = await maintainer('ana-refused');
    const missing = await override(ana, { commit_sha: head, blockers: ['check:deploy'] });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body.detail)).toMatch(/no blocker `check:deploy`/);

    const locked = await override(ana, { commit_sha: head, blockers: ['check:build', 'check:sast'] });
    expect(locked.status).toBe(403);
    expect(locked.body.detail).toMatch(/rule 'secure'.*overridable: false/);
    expect((await decide(stack.t, REPO, head)).decision).toBe('NO_SHIP');
  });

  it('judges the inputs before GitHub: a caller with no GitHub link naming no blocker of the commit, or a NUL in a blocker or the reason, gets 422, then 403', async () => {
    const head = sha('override-unlinked');
    await pullRequest(6, head, 'bob-author');
    await checkRun(stack.t, { repo_root: REPO, commit_sha: head, name: 'build', conclusion: 'failure' });
    // A service account passes maintain by its role alone, and has no GitHub login to judge independence by.
    const unlinked = await stack.service('APPROVER');
    for (const name of ['nonexistent', 'a\u0000']) {
      const res = await override(unlinked, { commit_sha: head, blockers: [name] });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'blockers'], msg: expect.stringContaining(`no blocker \`${name}\``) }),
      ]);
    }
    const nulReason = await override(unlinked, {
      commit_sha: head,
      blockers: ['check:build'],
      reason: `Hotfix for the outage\u0000 ${'x'.repeat(20)}`,
    });
    expect(nulReason.status).toBe(422);
    expect(nulReason.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'reason'], msg: expect.stringMatching(/NUL/) })]);
    const named = await override(unlinked, { commit_sha: head, blockers: ['check:build'] });
    expect(named.status).toBe(403);
    expect(named.body.detail).toMatch(/your account has no GitHub link/);
    expect((await decide(stack.t, REPO, head)).decision).toBe('NO_SHIP');
  });

  it('refuses the owner of the agent session that produced the change, saying so, and accepts a maintainer who owns none', async () => {
    const head = sha('override-session-owner');
    const copilot = { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' };
    await storeReadPullRequest(stack.t.database.db, REPO, {
      number: 5,
      head,
      author: 'Copilot',
      authorType: 'Bot',
      commit: { author: copilot, committer: { login: 'web-flow', type: 'User', name: 'GitHub', email: 'noreply@github.com' } },
    });
    await checkRun(stack.t, { repo_root: REPO, commit_sha: head, name: 'build', conclusion: 'failure' });
    // Ana ran the agent: her session was open when the agent's commit was pushed (docs/mcp-gateway.md, "Sessions and the commits they produced").
    const ana = await maintainer('ana-session-owner');
    const session = await insertAgentSession(stack.t.database.db, { owner_id: ana.id, repo_root: REPO });
    await stack.t.database.db('commit_arrivals').insert({
      repo_root: REPO,
      commit_sha: head,
      branch: 'copilot/fix-5',
      arrived_at: new Date(Date.now() + 1000),
      delivery_id: 'push-override-session-owner',
    });
    const before = await decide(stack.t, REPO, head);
    expect(before.authorship.commits[0].governed_by).toMatchObject({ kind: 'agent_session', execution_id: session });

    const byOwner = await override(ana, { commit_sha: head, blockers: ['check:build'] });
    expect(byOwner.status).toBe(403);
    expect(byOwner.body.detail).toBe('You may not override this commit’s blockers: you own the agent session that produced the change.');
    expect((await decide(stack.t, REPO, head)).overridden).toEqual([]);

    const dan = await maintainer('dan-independent');
    expect((await override(dan, { commit_sha: head, blockers: ['check:build'] })).status).toBe(201);
  });

  it('refuses the owner of an execution or a workflow bound to the agent’s commit (its governed work), as a session’s owner', async () => {
    const head = sha('override-bound-work-owner');
    const copilot = { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' };
    await storeReadPullRequest(stack.t.database.db, REPO, {
      number: 41,
      head,
      author: 'Copilot',
      authorType: 'Bot',
      commit: { author: copilot, committer: copilot },
    });
    await checkRun(stack.t, { repo_root: REPO, commit_sha: head, name: 'build' });
    // Ana ran the agent as a governed execution bound to its commit; Bea ran a workflow bound to it.
    const ana = await maintainer('ana-ran-execution');
    const bea = await maintainer('bea-ran-workflow');
    await insertExecution(stack.t.database.db, { owner_id: ana.id, repo_root: REPO, commit_sha: head });
    const workflow = await insertWorkflow(stack.t.database.db, { owner_id: bea.id, repo_root: REPO, commit_sha: head });
    await stack.t.database.db('workflow_stages').insert({
      ...{ workflow_id: workflow, position: 0, stage_id: 'build', name: 'Build', task: 'test', stage_role: 'worker', status: 'running' },
      ...{
        policy_name: 'default',
        policy_version: 1,
        policy_digest: '0'.repeat(64),
        budget_cents: 1500,
        provider: 'openai',
        model: 'gpt-4o-mini',
      },
    });
    const before = await decide(stack.t, REPO, head);
    expect(before.authorship.commits[0].governed_by).toEqual({ kind: 'bound_work' });
    expect(before.blockers.map((b: { code: string }) => b.code)).toContain('human_approval_missing');

    for (const owner of [ana, bea]) {
      const refused = await override(owner, { commit_sha: head, blockers: ['human_approval_missing'] });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe('You may not override this commit’s blockers: you own a workflow or execution bound to the change.');
    }
    expect((await decide(stack.t, REPO, head)).decision).toBe('NO_SHIP');

    const dan = await maintainer('dan-independent-of-work');
    expect((await override(dan, { commit_sha: head, blockers: ['human_approval_missing'] })).status).toBe(201);
  });

  it('a commit no pull request names, of which shipgate stores no author, cannot be overridden (fail closed)', async () => {
    const head = sha('override-bare');
    await checkRun(stack.t, { repo_root: REPO, commit_sha: head, name: 'build', conclusion: 'failure' });
    const ana = await maintainer('ana-bare');
    const refused = await override(ana, { commit_sha: head, blockers: ['check:build'] });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/no record of who authored or committed/);
  });
});
