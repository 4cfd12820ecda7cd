import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FakeGitHub } from '../fakes/fake-github-server.js';
import type { TestApp } from '../support/test-app.js';
import { useGitHubAppGateway } from './support/github-app-gateway.js';

// docs/mcp-gateway.md, "Least-privilege upstream credentials": an upstream registered with
// auth.github_app gets, per agent session, the App's installation token limited to the session's
// repository and the registered permissions, and nobody else ever sees it.

const INSTALLATION = 5150;
const PERMISSIONS = { issues: 'write', contents: 'read' };

/** What a careless upstream may answer back: the header as it got it, and encoded as it might log or forward it. */
const ENCODINGS: Record<string, (text: string) => string> = {
  base64: (text) => Buffer.from(text).toString('base64'),
  base64url: (text) => Buffer.from(text).toString('base64url'),
  hex: (text) => Buffer.from(text).toString('hex'),
  percent: (text) => encodeURIComponent(text),
};
const echoOf = (authorization: string) =>
  [`you sent ${authorization}`, ...Object.entries(ENCODINGS).map(([name, encode]) => `${name} ${encode(authorization)}`)].join('; ');

/** The upstream's server for one request: `echo_auth` answers the Authorization it got, as a careless upstream might. */
function recordingServer(authorization: string): Server {
  const s = new Server({ name: 'recording', version: '1' }, { capabilities: { tools: {} } });
  const closedWorld = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  s.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object' }, annotations: closedWorld },
      { name: 'echo_auth', description: 'Answers the header it got.', inputSchema: { type: 'object' }, annotations: closedWorld },
    ],
  }));
  s.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: request.params.name === 'echo_auth' ? echoOf(authorization) : 'pong' }],
  }));
  return s;
}

const gateway = useGitHubAppGateway(INSTALLATION, recordingServer);
const { received, responses, noted } = gateway;
let t: TestApp;
let gh: FakeGitHub;
let upstream: { url: string };
beforeAll(() => {
  ({ t, gh } = gateway);
  upstream = { url: gateway.upstreamUrl };
});
const session = (repo: string) => gateway.session(repo, 'gh');

const tokenRequests = () => gh.requests.filter((r) => r.method === 'POST' && /^\/app\/installations\/\d+\/access_tokens$/.test(r.path));
const text = (result: unknown) => (result as { content: { text: string }[] }).content.map((c) => c.text).join('\n');

describe('an upstream registered with auth.github_app', () => {
  it('is refused (422) with permissions GitHub does not name for a repository, a level it does not grant, or beside an Authorization header', async () => {
    const register = (body: object) =>
      noted(
        t.request
          .post('/api/v1/mcp/servers')
          .set(t.admin.auth)
          .send({ name: 'bad', url: upstream.url, ...body }),
      );
    const organisation = await register({ auth: { github_app: { permissions: { members: 'read' } } } });
    expect(organisation.status).toBe(422);
    expect(JSON.stringify(organisation.body.detail)).toContain("'members' is not a GitHub repository permission");
    const level = await register({ auth: { github_app: { permissions: { workflows: 'read' } } } });
    expect(level.status).toBe(422);
    expect(JSON.stringify(level.body.detail)).toContain("GitHub grants 'workflows' only as write.");
    const both = await register({ headers: { authorization: 'Bearer static' }, auth: { github_app: { permissions: { issues: 'read' } } } });
    expect(both.status).toBe(422);
    expect(JSON.stringify(both.body.detail)).toContain('sends the minted installation token as Authorization');
  });

  it("gets a token limited to the session's repository and permissions, sent as its bearer token; nobody else ever sees it", async () => {
    const registered = await noted(
      t.request
        .post('/api/v1/mcp/servers')
        .set(t.admin.auth)
        .send({ name: 'gh', url: upstream.url, auth: { github_app: { permissions: PERMISSIONS } } }),
    );
    expect(registered.status).toBe(201);
    expect(registered.body.auth).toEqual({ github_app: { permissions: PERMISSIONS } });
    // Registration has no repository to mint for, so it sends the upstream nothing: its tools are pinned at a session's first listing.
    expect(received).toEqual([]);

    const { id, client } = await session('acme/api');
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['gh__echo_auth', 'gh__ping']);
    expect(text(await client.callTool({ name: 'gh__ping', arguments: {} }))).toBe('pong');
    const echoed = text(await client.callTool({ name: 'gh__echo_auth', arguments: {} }));

    // One token for the MCP session, as the App (JWT), for the repository and permissions only.
    const asked = tokenRequests();
    expect(asked).toHaveLength(1);
    expect(asked[0].path).toBe(`/app/installations/${INSTALLATION}/access_tokens`);
    expect(asked[0].headers.authorization).toMatch(/^bearer /i);
    expect(asked[0].body).toEqual({ repositories: ['api'], permissions: PERMISSIONS });
    const [minted] = gh.app.scopedTokens;
    expect(minted.token).toMatch(/^ghs_/);
    // Every request of the upstream's session (initialize, list, calls) carried it.
    expect(received.length).toBeGreaterThanOrEqual(4);
    expect(new Set(received)).toEqual(new Set([`Bearer ${minted.token}`]));
    // An upstream that answers it back does not reach the agent with it.
    expect(echoed.startsWith('you sent Bearer [REDACTED:upstream_credential]; ')).toBe(true);
    // Encoded too (base64 at any offset, URL-safe, hex, percent-encoded): the run that spells the token is gone.
    for (const encode of Object.values(ENCODINGS)) {
      const spelt = encode(`Bearer ${minted.token}`);
      const tokenPart = encode === ENCODINGS.hex ? spelt.slice(14) : encode === ENCODINGS.percent ? spelt.slice(9) : spelt.slice(12, -4);
      expect(echoed).not.toContain(tokenPart);
    }
    expect(echoed.split('[REDACTED:upstream_credential]').length).toBe(6);

    expect((await noted(t.request.post(`/api/v1/agent-sessions/${id}/close`).set(t.admin.auth))).status).toBe(200);
    expect((await noted(t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth))).status).toBe(200);
    expect((await noted(t.request.get(`/api/v1/compliance/${id}/export`).set(t.admin.auth))).status).toBe(200);
    expect((await noted(t.request.get('/api/v1/mcp/servers').set(t.admin.auth))).status).toBe(200);
    const seen = [
      ...responses.map((res) => JSON.stringify({ text: res.text, headers: res.headers })),
      echoed,
      JSON.stringify(tools),
      t.logs.text(),
    ].join('\n');
    expect(t.logs.lines.length).toBeGreaterThan(0);
    for (const token of gh.app.scopedTokens.map((s) => s.token)) expect(seen.includes(token) ? token : 'never seen').toBe('never seen');
  });

  it('mints the token again before it expires: one within 5 minutes of its expiry is never sent', async () => {
    gh.app.tokenLifetimeMs = 4 * 60_000;
    try {
      const { client } = await session('acme/api');
      const from = gh.app.scopedTokens.length;
      const before = received.length;
      await client.callTool({ name: 'gh__ping', arguments: {} });
      await client.callTool({ name: 'gh__ping', arguments: {} });
      const fresh = gh.app.scopedTokens.slice(from).map((s) => `Bearer ${s.token}`);
      expect(fresh.length).toBeGreaterThanOrEqual(2);
      // Each request went with a token minted for it, never one held past its refresh.
      expect(received.slice(before).every((sent) => fresh.includes(sent))).toBe(true);
      expect(new Set(received.slice(before)).size).toBeGreaterThanOrEqual(2);
    } finally {
      gh.app.tokenLifetimeMs = 3600_000;
    }
  });

  it('refuses a call of a session whose repository has no installation, recorded as denied with the reason', async () => {
    const { id, client } = await session('acme/elsewhere');
    const before = received.length;
    const result = await client.callTool({ name: 'gh__ping', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      "DENIED: upstream_credentials_unavailable: upstream 'gh' has no credentials: the GitHub App is not installed on acme/elsewhere",
    );
    expect(received.length).toBe(before);
    const record = await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth);
    expect(record.body.tool_calls).toEqual([
      expect.objectContaining({ seq: 1, tool: 'gh__ping', verdict: 'denied', reason: 'upstream_credentials_unavailable' }),
    ]);
  });
});
