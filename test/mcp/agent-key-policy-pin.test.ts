import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp, TestUser } from '../support/test-app.js';
import { mcpClient } from './support/everything-upstream.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';

// docs/mcp-gateway.md, "Repository agent keys": a key pins its policy's version; a newer version
// reaches it only when an ADMIN re-points it.

let gateway: GatewayFixture;
let t: TestApp;
let author: TestUser;
const clients: Client[] = [];

beforeAll(async () => {
  gateway = await startGateway();
  t = gateway.t;
  author = await t.user('POLICY_AUTHOR');
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.stop();
});

async function publish(forbidden: string[]): Promise<number> {
  const res = await t.request
    .post('/api/v1/policies')
    .set(author.auth)
    .send({ name: 'agent-terms', ceiling: ['mcp:everything/*'], forbidden });
  expect(res.status).toBe(201);
  return res.body.version;
}

/** A new MCP session of the key (a new governed session), its echo's verdict, and the policy version that session ran under. */
async function sessionOf(key: { key: string; mcp_url: string }): Promise<{ echoAllowed: boolean; version: number }> {
  const client = await mcpClient(key.mcp_url, { Authorization: `Bearer ${key.key}` });
  clients.push(client);
  const result = await client.callTool({ name: 'everything__echo', arguments: { message: 'hello' } });
  const sessions = await t.request.get('/api/v1/executions?scope=all&limit=1').set(t.admin.auth);
  const record = (await t.request.get(`/api/v1/executions/${sessions.body[0].id}`).set(t.admin.auth)).body;
  expect(record.tool_calls.at(-1).verdict).toBe(result.isError ? 'denied' : 'allowed');
  return { echoAllowed: !result.isError, version: record.policy.version };
}

describe('an agent key pins its policy version', () => {
  it('opens sessions under the pinned version after a POLICY_AUTHOR loosened the policy, until an ADMIN re-points the key', async () => {
    const strict = await publish(['mcp:everything/echo']);
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'pinned', repo_root: 'acme/shop', compliance_policy: 'agent-terms', servers: ['everything'] });
    expect(created.status).toBe(201);
    expect(created.body.policy_version).toBe(strict);
    expect(await sessionOf(created.body)).toEqual({ echoAllowed: false, version: strict });

    const loose = await publish([]);
    expect(loose).toBe(strict + 1);
    // The looser version does not reach the key's new sessions.
    expect(await sessionOf(created.body)).toEqual({ echoAllowed: false, version: strict });
    const listed = (await t.request.get('/api/v1/agent-keys').set(t.admin.auth)).body;
    expect(listed).toContainEqual(expect.objectContaining({ id: created.body.id, policy_version: strict }));

    // Only an ADMIN re-points a key.
    const byAuthor = await t.request.patch(`/api/v1/agent-keys/${created.body.id}`).set(author.auth).send({});
    expect(byAuthor.status).toBe(403);
    const unknown = await t.request.patch(`/api/v1/agent-keys/${created.body.id}`).set(t.admin.auth).send({ policy_version: 99 });
    expect(unknown.status).toBe(422);
    const repointed = await t.request.patch(`/api/v1/agent-keys/${created.body.id}`).set(t.admin.auth).send({});
    expect(repointed.status).toBe(200);
    expect(repointed.body).toMatchObject({ compliance_policy: 'agent-terms', policy_version: loose });
    expect(await sessionOf(created.body)).toEqual({ echoAllowed: true, version: loose });

    // Back to the strict version by naming it; a revoked key cannot be re-pointed.
    const back = await t.request.patch(`/api/v1/agent-keys/${created.body.id}`).set(t.admin.auth).send({ policy_version: strict });
    expect(back.body.policy_version).toBe(strict);
    expect(await sessionOf(created.body)).toEqual({ echoAllowed: false, version: strict });
    expect((await t.request.delete(`/api/v1/agent-keys/${created.body.id}`).set(t.admin.auth)).status).toBe(204);
    const revoked = await t.request.patch(`/api/v1/agent-keys/${created.body.id}`).set(t.admin.auth).send({});
    expect(revoked.status).toBe(409);
  });

  it('refuses to re-point a key to a version its permissions exceed', async () => {
    await publish([]);
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({
        name: 'wide',
        repo_root: 'acme/shop',
        compliance_policy: 'agent-terms',
        permissions: ['mcp:everything/echo'],
        servers: ['everything'],
      });
    expect(created.status).toBe(201);
    const narrower = await t.request
      .post('/api/v1/policies')
      .set(author.auth)
      .send({ name: 'agent-terms', ceiling: ['mcp:everything/get-env'] });
    expect(narrower.status).toBe(201);
    const res = await t.request.patch(`/api/v1/agent-keys/${created.body.id}`).set(t.admin.auth).send({});
    expect(res.status).toBe(403);
    expect(res.body.detail.denied).toEqual([expect.objectContaining({ permission: 'mcp:everything/echo' })]);
    const listed = (await t.request.get('/api/v1/agent-keys').set(t.admin.auth)).body;
    expect(listed).toContainEqual(expect.objectContaining({ id: created.body.id, policy_version: created.body.policy_version }));
  });
});
