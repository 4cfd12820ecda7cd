import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const SECRET = 'upstream-token-7c1f9e2b4d';
const github = {
  name: 'github',
  url: 'https://mcp.example.com/mcp',
  headers: { Authorization: `Bearer ${SECRET}`, 'X-Team': 'platform' },
  tools: { create_issue: ['repo:write'] },
};

describe('upstream MCP servers', () => {
  it('an ADMIN registers one; its headers are stored encrypted and shown by name only', async () => {
    const created = await t.request.post('/api/v1/mcp/servers').set(t.admin.auth).send(github);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'github', url: github.url, header_names: ['Authorization', 'X-Team'], tools: github.tools });
    const operator = await t.user('OPERATOR');
    const listed = await t.request.get('/api/v1/mcp/servers').set(operator.auth);
    expect(listed.status).toBe(200);
    // Another test of the file may have registered its own server before.
    expect(listed.body.map((s: { name: string }) => s.name)).toContain('github');
    for (const body of [created.text, listed.text]) expect(body).not.toContain(SECRET);
    const stored = await t.database.db('mcp_servers').where({ name: 'github' }).first();
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    const [upstream] = await t.deps.mcpServers.upstreams(['github']);
    expect(upstream.headers.Authorization).toBe(`Bearer ${SECRET}`);
  });

  it('refuses a taken name (409), a bad name, a non-HTTP URL or one holding credentials (422)', async () => {
    const taken = { ...github, name: 'taken' };
    expect((await t.request.post('/api/v1/mcp/servers').set(t.admin.auth).send(taken)).status).toBe(201);
    const again = await t.request.post('/api/v1/mcp/servers').set(t.admin.auth).send(taken);
    expect(again.status).toBe(409);
    for (const bad of [
      { ...github, name: 'GitHub' },
      { ...github, name: 'x'.repeat(41) },
      { ...github, name: 'local', url: 'file:///usr/bin/mcp-server' },
      { ...github, name: 'ok', headers: { 'X-Bad': 'a\r\nInjected: 1' } },
    ]) {
      const res = await t.request.post('/api/v1/mcp/servers').set(t.admin.auth).send(bad);
      expect(res.status).toBe(422);
    }
    // Credentials in the URL would be shown to every OPERATOR: refused, saying where they go.
    const withPassword = await t.request
      .post('/api/v1/mcp/servers')
      .set(t.admin.auth)
      .send({ ...github, name: 'creds', url: 'http://user:s3cret@127.0.0.1:1/mcp' });
    expect(withPassword.status).toBe(422);
    expect(JSON.stringify(withPassword.body)).toMatch(/user name or password/);
    expect(JSON.stringify(withPassword.body)).not.toContain('s3cret');
  });

  it('refuses a query parameter named like a credential (422, naming it), since OPERATORs see the URL; other parameters are kept', async () => {
    const register = (name: string, url: string) => t.request.post('/api/v1/mcp/servers').set(t.admin.auth).send({ name, url });
    for (const [i, query] of [
      'token=QUERYSECRET',
      'profile=x&api_key=QUERYSECRET',
      'X-Amz-Signature=QUERYSECRET',
      'Password=QUERYSECRET',
      'access_token=QUERYSECRET',
      'SIG=QUERYSECRET',
      'code=QUERYSECRET',
      'session=QUERYSECRET',
      'apiKey=QUERYSECRET',
      'clientsecret=QUERYSECRET',
    ].entries()) {
      const parameter = query.split('&').at(-1)!.split('=')[0];
      const res = await register(`query-creds-${i}`, `http://127.0.0.1:9/mcp?${query}`);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'url'], msg: expect.stringContaining(`'${parameter}'`) })]);
      expect(res.body.detail[0].msg).toContain('`headers`');
      expect(res.text).not.toContain('QUERYSECRET');
    }
    const listed = await t.request.get('/api/v1/mcp/servers').set(t.admin.auth);
    expect(listed.text).not.toContain('QUERYSECRET');
    // Parameters that name no credential are the upstream's business.
    const plain = await register('query-plain', 'http://127.0.0.1:9/mcp?profile=x&version=2&keyword=y&author=z');
    expect(plain.status).toBe(201);
    expect(plain.body.url).toBe('http://127.0.0.1:9/mcp?profile=x&version=2&keyword=y&author=z');
  });

  it('refuses framing, hop-by-hop and MCP protocol headers in any case (422 at the header); ordinary ones are kept', async () => {
    for (const [i, header] of [
      'HOST',
      'Content-Length',
      'Transfer-Encoding',
      'connection',
      'Keep-Alive',
      'TE',
      'Trailer',
      'Upgrade',
      'Expect',
      'Content-Type',
      'ACCEPT',
      'Mcp-Session-Id',
      'MCP-Protocol-Version',
      'Last-Event-ID',
    ].entries()) {
      const res = await t.request
        .post('/api/v1/mcp/servers')
        .set(t.admin.auth)
        .send({ name: `framing-${i}`, url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': 'k', [header]: 'chunked' } });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'headers', header], msg: expect.stringContaining(`'${header}'`) }),
      ]);
      expect(
        await t.database
          .db('mcp_servers')
          .where({ name: `framing-${i}` })
          .first(),
      ).toBeUndefined();
    }
    // A proxy's credential is the ADMIN's to give.
    const ordinary = await t.request
      .post('/api/v1/mcp/servers')
      .set(t.admin.auth)
      .send({
        name: 'ordinary-headers',
        url: 'http://127.0.0.1:9/mcp',
        headers: { 'X-Api-Key': 'k', 'Proxy-Authorization': 'Basic cA==' },
      });
    expect(ordinary.status).toBe(201);
    expect(ordinary.body.header_names).toEqual(['X-Api-Key', 'Proxy-Authorization']);
  });

  it('only an ADMIN registers or deletes; deleting an unknown server is 404', async () => {
    const operator = await t.user('OPERATOR');
    expect(
      (
        await t.request
          .post('/api/v1/mcp/servers')
          .set(operator.auth)
          .send({ ...github, name: 'other' })
      ).status,
    ).toBe(403);
    // A server of this test's own, so the test passes alone and in any order.
    expect(
      (
        await t.request
          .post('/api/v1/mcp/servers')
          .set(t.admin.auth)
          .send({ ...github, name: 'doomed' })
      ).status,
    ).toBe(201);
    expect((await t.request.delete('/api/v1/mcp/servers/doomed').set(operator.auth)).status).toBe(403);
    expect((await t.request.delete('/api/v1/mcp/servers/doomed').set(t.admin.auth)).status).toBe(204);
    expect((await t.request.delete('/api/v1/mcp/servers/doomed').set(t.admin.auth)).status).toBe(404);
    const names = (await t.request.get('/api/v1/mcp/servers').set(t.admin.auth)).body.map((s: { name: string }) => s.name);
    expect(names).not.toContain('doomed');
  });

  it('refuses auth.github_app (422, saying why) while no GitHub App is configured: there is nothing to mint tokens with', async () => {
    const res = await t.request
      .post('/api/v1/mcp/servers')
      .set(t.admin.auth)
      .send({ name: 'least-privilege', url: 'https://mcp.example.com/mcp', auth: { github_app: { permissions: { issues: 'read' } } } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.detail)).toContain('The GitHub App is not configured');
    expect(await t.database.db('mcp_servers').where({ name: 'least-privilege' }).first()).toBeUndefined();
  });
});
