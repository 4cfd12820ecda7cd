import { jest } from '@jest/globals';
import pg from 'pg';
import type { PullRequestFacts } from '../../core/release/authorship.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, sha } from '../support/release-api.js';

// Agent sessions cover only an agent's commits (docs/mcp-gateway.md, "Sessions and the commits they produced"), so a
// person's pull request head is polled without asking PostgreSQL for them: one round trip fewer per poll
// (docs/benchmarks.md). An agent's head reads them on every poll, and so does a simulated draft gate that makes the
// author an agent.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const SESSION_COVERAGE = 'release_session_coverage';

/** A pull request at `head` whose one commit `login` authored, with a check run so the commit has evidence. */
async function pullRequest(repo: string, head: string, login: string) {
  const who = { login, type: 'User', name: login, email: `${login}@example.com` };
  const facts: PullRequestFacts = {
    number: 3,
    head_sha: head,
    author: { login, type: 'User' },
    assignees: [],
    commits: [{ sha: head, author: who, committer: who, coauthors: [] }],
    reviews: [],
  };
  await checkRun(t, { repo_root: repo, commit_sha: head, name: 'ci' });
  await t.database
    .db('pull_request_authorship')
    .insert({ repo_root: repo, commit_sha: head, number: 3, status: 'read', facts: JSON.stringify(facts), commit_shas: [head] });
}

/** The named statements `act` sends. */
async function statementsOf(act: () => Promise<unknown>): Promise<string[]> {
  const sent = jest.spyOn(pg.Client.prototype, 'query');
  try {
    await act();
    return sent.mock.calls.map(([config]) => (config as { name?: string }).name ?? '');
  } finally {
    sent.mockRestore();
  }
}

describe('polling a pull request head', () => {
  it("reads no agent sessions for a person's pull request, and reads them on every poll of an agent's", async () => {
    const repo = 'acme/session-reads';
    const [person, agent] = [sha('person-head'), sha('agent-head')];
    await pullRequest(repo, person, 'dev');
    await pullRequest(repo, agent, 'copilot-swe-agent[bot]');
    for (let i = 0; i < 3; i++) {
      expect(await statementsOf(() => decide(t, repo, person))).not.toContain(SESSION_COVERAGE);
      expect(await statementsOf(() => decide(t, repo, agent))).toContain(SESSION_COVERAGE);
    }
    expect((await decide(t, repo, person)).authorship).toMatchObject({ agent_authored: false, commits: [{ governed_by: null }] });
    expect((await decide(t, repo, agent)).authorship).toMatchObject({ agent_authored: true });
  });

  it("reads them when a simulated draft gate makes the person's commit an agent's", async () => {
    const repo = 'acme/session-reads-draft';
    const head = sha('draft-head');
    await pullRequest(repo, head, 'dev');
    const simulate = () =>
      t.request
        .post(`/api/v1/releases/gates/${repo}/simulate`)
        .set(t.admin.auth)
        .send({ gate: { agents: { accounts: ['dev'] } } })
        .expect(200);
    expect(await statementsOf(simulate)).toContain(SESSION_COVERAGE);
  });
});
