import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp, TestUser } from '../support/test-app.js';
import { mcpClient } from './support/everything-upstream.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';

// docs/mcp-gateway.md, "Governed agent sessions" and "Repository agent keys": deactivating a
// user ends the agent work they started.

let gateway: GatewayFixture;
let t: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  gateway = await startGateway();
  t = gateway.t;
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.stop();
});

async function agent(url: string, token: string): Promise<Client> {
  const client = await mcpClient(url, { Authorization: `Bearer ${token}` });
  clients.push(client);
  return client;
}

const echo = (client: Client, message: string) => client.callTool({ name: 'everything__echo', arguments: { message } });

async function setActive(user: TestUser, active: boolean): Promise<void> {
  const res = await t.request.patch(`/api/v1/users/${user.id}`).set(t.admin.auth).send({ active });
  expect(res.status).toBe(200);
}

async function recordOf(id: string) {
  const res = await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth);
  expect(res.status).toBe(200);
  return res.body;
}

async function keySessionIds(repo: string): Promise<string[]> {
  const res = await t.request.get('/api/v1/executions?scope=all&limit=100').set(t.admin.auth);
  return (res.body as { id: string; kind: string; repo_root: string }[])
    .filter((e) => e.kind === 'agent_session' && e.repo_root === repo)
    .map((e) => e.id);
}

describe('deactivating a user ends the agent work they started', () => {
  it('refuses the agent keys they created (401, for good) and closes their open sessions, recorded as closed by deactivation', async () => {
    const creator = await t.user('ADMIN', 'second-admin@example.com');
    const operator = await t.user('OPERATOR');
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(creator.auth)
      .send({ name: 'copilot', repo_root: 'acme/keys', permissions: ['mcp:everything/*'], servers: ['everything'] });
    expect(created.status).toBe(201);
    const { key, mcp_url: keyUrl, id: keyId } = created.body;
    const keyAgent = await agent(keyUrl, key);
    expect((await echo(keyAgent, 'before')).isError).toBeFalsy();

    const opened = await t.request
      .post('/api/v1/agent-sessions')
      .set(operator.auth)
      .send({ name: 'Fix it', repo_root: 'acme/shop', permissions: ['mcp:everything/*'], servers: ['everything'] });
    expect(opened.status).toBe(201);
    const operatorAgent = await agent(opened.body.mcp_url, opened.body.token);
    expect((await echo(operatorAgent, 'before')).isError).toBeFalsy();

    await setActive(creator, false);
    await setActive(operator, false);

    // The creator's key: no new session, and its open MCP session makes no further call.
    await expect(agent(keyUrl, key)).rejects.toThrow(/401|neither an agent session token nor an active agent key/);
    await expect(echo(keyAgent, 'after')).rejects.toThrow(/401|neither an agent session token nor an active agent key/);
    // The operator's session token refuses calls: the session was closed.
    await expect(echo(operatorAgent, 'after')).rejects.toThrow(/403|ended/);
    // Their API keys stop at once, as before.
    expect((await t.request.get('/api/v1/auth/me').set(operator.auth)).status).toBe(403);

    const [keySession] = await keySessionIds('acme/keys');
    for (const id of [opened.body.id as string, keySession]) {
      const record = await recordOf(id);
      expect(record).toMatchObject({
        status: 'completed',
        verdict: 'compliant',
        error: { code: 'owner_deactivated' },
        tool_calls: [expect.objectContaining({ verdict: 'allowed' })],
      });
      // Closed as closing does: the execution certificate covers the calls made before.
      expect(record.certificates.length).toBeGreaterThanOrEqual(2);
    }
    const keys = (await t.request.get('/api/v1/agent-keys').set(t.admin.auth)).body as { id: string; revoked_reason: string | null }[];
    expect(keys.find((k) => k.id === keyId)?.revoked_reason).toBe('creator_deactivated');

    // Reactivation gives back the account, not the agent credentials (docs/operations.md, "Security").
    await setActive(creator, true);
    await setActive(operator, true);
    await expect(agent(keyUrl, key)).rejects.toThrow(/401|neither an agent session token nor an active agent key/);
    await expect(echo(operatorAgent, 'again')).rejects.toThrow(/403|ended/);
    expect((await recordOf(opened.body.id)).status).toBe('completed');
    expect((await t.request.get('/api/v1/auth/me').set(operator.auth)).status).toBe(200);
  });

  it('refuses a deactivated owner at the MCP endpoint even before their keys were revoked and sessions closed', async () => {
    const creator = await t.user('ADMIN', 'third-admin@example.com');
    const operator = await t.user('OPERATOR');
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(creator.auth)
      .send({ name: 'raced', repo_root: 'acme/raced', permissions: ['mcp:everything/*'], servers: ['everything'] });
    expect(created.status).toBe(201);
    const opened = await t.request
      .post('/api/v1/agent-sessions')
      .set(operator.auth)
      .send({ name: 'Raced', repo_root: 'acme/shop', permissions: ['mcp:everything/*'], servers: ['everything'] });
    const operatorAgent = await agent(opened.body.mcp_url, opened.body.token);
    expect((await echo(operatorAgent, 'before')).isError).toBeFalsy();

    // Only the accounts marked inactive, as a deactivation is between its steps.
    await t.database.db('users').whereIn('id', [creator.id, operator.id]).update({ active: false });

    await expect(agent(created.body.mcp_url, created.body.key)).rejects.toThrow(/401|neither an agent session token/);
    await expect(echo(operatorAgent, 'after')).rejects.toThrow(/403|ended/);
    // The refused request closed the session itself, recorded as closed by deactivation.
    expect(await recordOf(opened.body.id)).toMatchObject({ status: 'completed', error: { code: 'owner_deactivated' } });
    expect((await t.request.get('/api/v1/agent-keys').set(t.admin.auth)).body).toContainEqual(
      expect.objectContaining({ id: created.body.id, revoked_at: null }),
    );
  });
});
