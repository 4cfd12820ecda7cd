import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pushPayload, settle } from '../support/github-deliveries.js';
import { decide } from '../support/release-api.js';
import { serviceAccount } from '../support/service-account.js';
import type { TestUser } from '../support/test-app.js';
import { agentCommit } from '../github/support/agent-pull-requests.js';
import { mcpClient } from './support/everything-upstream.js';
import { useGatewayOnGitHub } from './support/gateway-on-github.js';

// docs/mcp-gateway.md, "Sessions and the commits they produced".
const INSTALLATION = 95;
const stack = useGatewayOnGitHub({ secret: 'session-commits-secret', installationId: INSTALLATION, gate: 'required_checks: [build]\n' });
const clients: Client[] = [];
let operator: TestUser;
let shas = 0;
const nextSha = () => (++shas).toString(16).padStart(40, 'd');

beforeAll(async () => {
  // The agent runner's account: a service account, judged by role alone (the App gates repositories by GitHub permission).
  operator = await serviceAccount(stack.t, 'OPERATOR');
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
});

async function openSession(repo: string, body: Record<string, unknown> = {}) {
  const res = await stack.t.request
    .post('/api/v1/agent-sessions')
    .set(operator.auth)
    .send({ name: 'Fix issue', repo_root: repo, servers: ['everything'], ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; execution_id: string; mcp_url: string; token: string };
}

async function push(repo: string, branch: string, sha: string) {
  expect(await stack.send('push', pushPayload(repo, branch, [sha], INSTALLATION))).toEqual({ status: 'queued' });
}

/** An agent's pull request whose only commit `head` is Copilot's, its build passed and approved: the decision, and its blockers' codes. */
async function decisionOfAgentChange(repo: string, number: number, head: string) {
  await stack.agentPullRequest(repo, number, head, agentCommit(head));
  const d = await decide(stack.t, repo, head);
  return { d, codes: d.blockers.map((b: { code: string }) => b.code) as string[], governedBy: d.authorship.commits[0].governed_by };
}

const ended = async (id: string) => (await stack.t.request.post(`/api/v1/agent-sessions/${id}/close`).set(operator.auth)).body;

describe('agent sessions cover the commits pushed while they were open', () => {
  it('a commit pushed while a compliant session of the repository is open is covered, and the decision names the session', async () => {
    const repo = 'acme/session-covered';
    stack.repository(repo);
    const head = nextSha();
    const session = await openSession(repo, { branch: 'copilot/fix-1' });
    await push(repo, 'copilot/fix-1', head);
    const { d, codes, governedBy } = await decisionOfAgentChange(repo, 1, head);
    expect(codes).toEqual([]);
    expect(d.decision).toBe('SHIP');
    expect(governedBy).toEqual({ kind: 'agent_session', session_id: session.id, execution_id: session.execution_id });
    // The snapshot records it too, and closing the session compliant keeps it covering.
    const [bound] = await stack.t.database.db('snapshots').where({ id: d.snapshot_id }).select('provenance');
    expect(bound.provenance.authorship.commits[0].governed_by).toEqual(governedBy);
    expect(await ended(session.id)).toMatchObject({ verdict: 'compliant' });
    expect((await decide(stack.t, repo, head)).decision).toBe('SHIP');
    // The App's check run on GitHub says so as well.
    const run = stack.gh.app.checkRunsOn(repo, head).at(-1);
    expect(run).toMatchObject({ conclusion: 'success' });
    expect(run?.output.summary).toContain(`pushed during agent session ${session.id.replace(/-/g, '\\-')}`);
  });

  it('a push delivered after the pull request was evaluated re-evaluates its head, and the check run turns to success', async () => {
    const repo = 'acme/session-push-later';
    stack.repository(repo);
    const head = nextSha();
    await openSession(repo, { branch: 'copilot/fix-7' });
    expect((await decisionOfAgentChange(repo, 7, head)).codes).toEqual(['agent_change_ungoverned']);
    expect(stack.gh.app.checkRunsOn(repo, head).at(-1)).toMatchObject({ conclusion: 'failure' });
    await push(repo, 'copilot/fix-7', head);
    expect(stack.gh.app.checkRunsOn(repo, head).at(-1)).toMatchObject({ conclusion: 'success' });
  });

  it('a commit pushed before the session opened is not covered', async () => {
    const repo = 'acme/session-late';
    stack.repository(repo);
    const head = nextSha();
    await push(repo, 'copilot/fix-2', head);
    await openSession(repo, { branch: 'copilot/fix-2' });
    const { codes, governedBy } = await decisionOfAgentChange(repo, 2, head);
    expect(codes).toEqual(['agent_change_ungoverned']);
    expect(governedBy).toBeNull();
  });

  it('a commit pushed during a session that made a call denied under a blocking policy (hipaa, an open-world tool) is not covered', async () => {
    const repo = 'acme/session-denied';
    stack.repository(repo);
    const head = nextSha();
    const session = await openSession(repo, { compliance_policy: 'hipaa' });
    await push(repo, 'copilot/fix-3', head);
    // Covered while nothing was denied...
    expect((await decisionOfAgentChange(repo, 3, head)).codes).toEqual([]);
    const client = await mcpClient(session.mcp_url, { Authorization: `Bearer ${session.token}` });
    clients.push(client);
    const denied = await client.callTool({ name: 'everything__gzip-file-as-resource', arguments: {} });
    expect(denied.isError).toBe(true);
    // ...not once a call is denied, while it is open and after it closed non-compliant.
    const open = await decide(stack.t, repo, head);
    expect(open.blockers.map((b: { code: string }) => b.code)).toEqual(['agent_change_ungoverned']);
    expect(open.authorship.commits[0].governed_by).toBeNull();
    expect(await ended(session.id)).toMatchObject({ verdict: 'non_compliant' });
    expect((await decide(stack.t, repo, head)).blockers.map((b: { code: string }) => b.code)).toEqual(['agent_change_ungoverned']);
  });

  it("a session's first call denied under hipaa re-posts the check run it made green as failure, with no new GitHub event", async () => {
    const repo = 'acme/session-recheck-denied';
    stack.repository(repo);
    const head = nextSha();
    const session = await openSession(repo, { compliance_policy: 'hipaa', branch: 'copilot/fix-8' });
    await push(repo, 'copilot/fix-8', head);
    expect((await decisionOfAgentChange(repo, 8, head)).codes).toEqual([]);
    expect(stack.gh.app.checkRunsOn(repo, head).at(-1)).toMatchObject({ conclusion: 'success' });
    const client = await mcpClient(session.mcp_url, { Authorization: `Bearer ${session.token}` });
    clients.push(client);
    expect((await client.callTool({ name: 'everything__gzip-file-as-resource', arguments: {} })).isError).toBe(true);
    await settle(stack.t);
    const run = stack.gh.app.checkRunsOn(repo, head).at(-1);
    expect(run).toMatchObject({ conclusion: 'failure' });
    expect(JSON.stringify(run)).toContain('agent_change_ungoverned');
  });

  it('cancelling a session that covered a pull request re-posts its check run as failure', async () => {
    const repo = 'acme/session-recheck-cancel';
    stack.repository(repo);
    const head = nextSha();
    const session = await openSession(repo, { branch: 'copilot/fix-9' });
    await push(repo, 'copilot/fix-9', head);
    expect((await decisionOfAgentChange(repo, 9, head)).codes).toEqual([]);
    expect(stack.gh.app.checkRunsOn(repo, head).at(-1)).toMatchObject({ conclusion: 'success' });
    expect((await stack.t.request.delete(`/api/v1/executions/${session.id}`).set(operator.auth)).body).toMatchObject({
      status: 'cancelled',
    });
    await settle(stack.t);
    expect(stack.gh.app.checkRunsOn(repo, head).at(-1)).toMatchObject({ conclusion: 'failure' });
  });

  it('a session naming another branch does not cover a push to this one', async () => {
    const repo = 'acme/session-branch';
    stack.repository(repo);
    const head = nextSha();
    await openSession(repo, { branch: 'copilot/other' });
    await push(repo, 'copilot/fix-4', head);
    expect((await decisionOfAgentChange(repo, 4, head)).codes).toEqual(['agent_change_ungoverned']);
  });

  it('a session of another repository covers nothing here', async () => {
    const repo = 'acme/session-elsewhere';
    stack.repository(repo);
    const head = nextSha();
    await openSession('acme/another-repo');
    await push(repo, 'copilot/fix-5', head);
    expect((await decisionOfAgentChange(repo, 5, head)).codes).toEqual(['agent_change_ungoverned']);
  });

  it('a tag push brings no commit to a branch: nothing is covered by it', async () => {
    const repo = 'acme/session-tag';
    stack.repository(repo);
    const head = nextSha();
    await openSession(repo);
    const tag = pushPayload(repo, 'unused', [head], INSTALLATION);
    tag.ref = 'refs/tags/v1';
    expect(await stack.send('push', tag)).toMatchObject({ status: 'ignored' });
    expect((await decisionOfAgentChange(repo, 6, head)).codes).toEqual(['agent_change_ungoverned']);
  });
});
