import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WORKFLOW_SESSION_OWNER } from '../../core/mcp/workflow-session.js';
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../fakes/fake-oidc-issuer.js';
import { mcpClient } from '../mcp/support/everything-upstream.js';
import { startGateway, type GatewayFixture } from '../mcp/support/gateway-fixture.js';
import { runAction, type ActionRun } from './support/run-action.js';

// `mode: session` (docs/action.md, "An agent in GitHub Actions"): the bundled Action, run as a
// runner runs it with the job's OIDC token (a fake issuer), opens an agent session of its own
// repository and branch; an agent step then reaches the upstream tools with its outputs.
let issuer: FakeOidcIssuer;
let gateway: GatewayFixture;
const REPO = 'acme/widgets';
const clients: Client[] = [];

beforeAll(async () => {
  issuer = await startFakeOidcIssuer(REPO);
  gateway = await startGateway({}, { SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme' });
}, 60_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.stop();
  await issuer?.close();
});

const session = (inputs: Record<string, string> = {}) =>
  runAction(
    { 'api-url': gateway.url, mode: 'session', servers: 'everything', permissions: 'mcp:everything/*', ...inputs },
    { env: issuer.runnerEnv },
  );
const logLines = (run: ActionRun, secret: string) =>
  run.log.split('\n').filter((line) => line.includes(secret) && line !== `::add-mask::${secret}`);
const textOf = (result: Record<string, unknown>) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('the Action in mode session', () => {
  it('opens a session for its repository and branch with the job OIDC token; an agent uses mcp-url and token', async () => {
    const run = await session({ 'expires-in': '900' });
    expect([run.code, run.log]).toEqual([0, expect.stringContaining(`for ${REPO} on main`)]);
    const { 'mcp-url': url, token, 'session-id': id, 'execution-id': executionId } = run.outputs;
    expect(url).toBe(`${gateway.url}/api/v1/mcp/sessions/${id}`);
    expect(executionId).toBe(id);
    // Masked before it was written: the runner hides it in every later line of the job log.
    expect(run.log).toContain(`::add-mask::${token}`);
    expect(run.log.indexOf(`::add-mask::${token}`)).toBeLessThan(run.log.indexOf(`Opened agent session ${id}`));
    expect(logLines(run, token)).toEqual([]);
    for (const jwt of issuer.issued) expect(logLines(run, jwt)).toEqual([]);

    const agent = await mcpClient(url, { Authorization: `Bearer ${token}` });
    clients.push(agent);
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toContain('everything__echo');
    const result = await agent.callTool({ name: 'everything__echo', arguments: { message: 'from the agent step' } });
    expect([result.isError ?? false, textOf(result)]).toEqual([false, expect.stringContaining('from the agent step')]);

    const record = await gateway.t.request.get(`/api/v1/executions/${executionId}`).set(gateway.t.admin.auth);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ kind: 'agent_session', status: 'running', repo_root: REPO });
    expect(record.body.tool_calls).toEqual([expect.objectContaining({ tool: 'everything__echo', verdict: 'allowed' })]);
  });

  it('is refused another repository than the token names (403), and says so in one line', async () => {
    const run = await session({ repository: 'acme/gadgets' });
    expect(run.code).toBe(1);
    expect(run.log).toContain(
      '::error::shipgate refused to open an agent session for acme/gadgets (403): The OIDC token\'s "repository" claim is acme/widgets',
    );
    expect(run.outputs).toEqual({});
  });

  it('reports every bad session input at once', async () => {
    const run = await session({ servers: 'Not A Server', 'expires-in': '30', mode: 'session' });
    expect(run.code).toBe(1);
    expect(run.log).toContain('servers are lower-case letters, digits and - (got "Not A Server").');
    expect(run.log).toContain('expires-in must be a whole number of seconds from 60 to 86400 (got "30").');
    const noServers = await runAction({ 'api-url': gateway.url, mode: 'session' }, { env: issuer.runnerEnv });
    expect(noServers.log).toContain('mode session needs servers');
  });
});

describe('POST /agent-sessions with a GitHub Actions OIDC token', () => {
  const open = async (token: string, body: Record<string, unknown> = {}) =>
    gateway.t.request
      .post('/api/v1/agent-sessions')
      .set({ Authorization: `Bearer ${token}` })
      .send({ name: 'agent step', repo_root: REPO, servers: ['everything'], ...body });

  it("binds the session to the token's branch and records the workflow run", async () => {
    const res = await open(await issuer.sign(REPO, { run_id: '777', actor: 'mona' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      branch: 'main',
      workflow_run: { repository: REPO, run_id: '777', actor: 'mona', event_name: 'push', workflow_ref: expect.stringContaining('ci.yml') },
    });
    // Stored with the session, which the built-in github-actions account owns (no person is behind the token).
    const stored = await gateway.t.database.db('agent_sessions').where({ execution_id: res.body.id }).first();
    expect(stored.workflow_run).toEqual(res.body.workflow_run);
    const execution = await gateway.t.request.get(`/api/v1/executions/${res.body.id}`).set(gateway.t.admin.auth);
    expect(execution.body.owner_id).toBe(WORKFLOW_SESSION_OWNER.id);
    const pullRequest = await open(
      await issuer.sign(REPO, { ref: 'refs/pull/3/merge', head_ref: 'feature-x', event_name: 'pull_request' }),
    );
    expect([pullRequest.status, pullRequest.body.branch]).toEqual([201, 'feature-x']);
    const withKey = await gateway.t.request
      .post('/api/v1/agent-sessions')
      .set(gateway.t.admin.auth)
      .send({ name: 'by key', repo_root: REPO, servers: ['everything'] });
    expect([withKey.status, withKey.body.workflow_run, withKey.body.branch]).toEqual([201, null, null]);
  });

  it('refuses a token of another repository, and another branch than the one it runs on', async () => {
    const foreign = await open(await issuer.sign('acme/gadgets'));
    expect([foreign.status, foreign.body.detail]).toEqual([
      403,
      expect.stringContaining('"repository" claim is acme/gadgets: it may only open agent sessions for that repository, not acme/widgets'),
    ]);
    const otherBranch = await open(await issuer.sign(REPO), { branch: 'release' });
    expect([otherBranch.status, otherBranch.body.detail]).toEqual([
      403,
      'The OIDC token\'s "ref" claim is refs/heads/main: a session it opens is on branch main, not release.',
    ]);
    const tag = await open(await issuer.sign(REPO, { ref: 'refs/tags/v1' }), { branch: 'main' });
    expect([tag.status, tag.body.detail]).toEqual([403, expect.stringContaining('names no branch')]);
  });
});
