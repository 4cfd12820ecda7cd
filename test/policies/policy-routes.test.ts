import { policyDigest } from '../../core/policies/policy-digest.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';

let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await t.user('POLICY_AUTHOR');
});
afterAll(async () => {
  await t.close();
});

const pci = { name: 'pci', description: 'Card data', ceiling: ['repo:read', 'document:*'], forbidden: ['network:*'] };

describe('GET /compliance/presets', () => {
  it('lists the built-in presets without a key, with digest and aliases', async () => {
    const res = await t.request.get('/api/v1/compliance/presets');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { name: string }) => p.name)).toEqual(['default', 'hipaa', 'sox', 'legal_privilege']);
    const legal = res.body[3];
    expect(legal).toMatchObject({
      version: 1,
      built_in: true,
      aliases: ['legal'],
      retention_days: 3650,
      denied_call_severity: 'blocking',
      max_tool_calls: 50,
      max_budget_cents: 1000000,
    });
    expect(legal.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('GET /compliance/keys', () => {
  it('publishes the signing key as a JWK set without a key', async () => {
    const res = await t.request.get('/api/v1/compliance/keys');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      keys: [
        {
          kty: 'OKP',
          crv: 'Ed25519',
          x: expect.any(String),
          kid: t.deps.signer.keyid,
          use: 'sig',
          alg: 'EdDSA',
          status: 'current',
          created_at: expect.any(String),
          retired_at: null,
        },
      ],
    });
  });
});

describe('GET /policies', () => {
  it('needs a key and answers any role', async () => {
    expect((await t.request.get('/api/v1/policies')).status).toBe(401);
    const viewer = await t.user('VIEWER');
    const res = await t.request.get('/api/v1/policies').set(viewer.auth);
    expect(res.status).toBe(200);
    expect(res.body.slice(0, 4).map((p: { name: string }) => p.name)).toEqual(['default', 'hipaa', 'sox', 'legal_privilege']);
  });

  it('finds a policy by name or alias, and answers 404 for unknown names and versions', async () => {
    const legal = await t.request.get('/api/v1/policies/legal').set(author.auth);
    expect(legal.status).toBe(200);
    expect(legal.body.name).toBe('legal_privilege');
    expect((await t.request.get('/api/v1/policies/hipaa?version=1').set(author.auth)).status).toBe(200);
    expect((await t.request.get('/api/v1/policies/hipaa?version=2').set(author.auth)).body).toEqual({ detail: 'Policy not found.' });
    expect((await t.request.get('/api/v1/policies/nope').set(author.auth)).status).toBe(404);
    // 0, and one past PostgreSQL's integer (a 422 of the whole request from the database before).
    for (const version of ['0', '2147483648']) {
      const bad = await t.request.get(`/api/v1/policies/hipaa?version=${version}`).set(author.auth);
      expect([version, bad.status, bad.body.detail[0].loc]).toEqual([version, 422, ['query', 'version']]);
    }
  });
});

describe('POST /policies', () => {
  it('is for ADMIN and POLICY_AUTHOR only', async () => {
    for (const role of ['VIEWER', 'OPERATOR', 'APPROVER', 'AUDITOR'] as const) {
      const user = await t.user(role);
      const res = await t.request
        .post('/api/v1/policies')
        .set(user.auth)
        .send({ ...pci, name: `denied-${role.toLowerCase()}` });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Requires one of: ADMIN, POLICY_AUTHOR' });
    }
    expect(
      (
        await t.request
          .post('/api/v1/policies')
          .set(t.admin.auth)
          .send({ ...pci, name: 'by-admin' })
      ).status,
    ).toBe(201);
  });

  it('creates version 1 with defaults filled in, then immutable next versions', async () => {
    const first = await t.request.post('/api/v1/policies').set(author.auth).send(pci);
    expect(first.status).toBe(201);
    expect(first.headers.location).toBe('/api/v1/policies/pci?version=1');
    expect(first.body).toEqual({
      name: 'pci',
      version: 1,
      description: 'Card data',
      ceiling: ['repo:read', 'document:*'],
      defaults: ['repo:read', 'document:*'],
      forbidden: ['network:*'],
      denied_call_severity: 'blocking',
      output_rules: ['secrets'],
      max_tool_calls: 50,
      max_budget_cents: 1000000,
      retention_days: 365,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      built_in: false,
      aliases: [],
    });
    const second = await t.request
      .post('/api/v1/policies')
      .set(author.auth)
      .send({ ...pci, defaults: ['repo:read'], output_rules: ['secrets', 'pii'], retention_days: 400 });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ version: 2, defaults: ['repo:read'], retention_days: 400 });

    const newest = await t.request.get('/api/v1/policies/pci').set(author.auth);
    expect(newest.body).toEqual(second.body);
    const v1 = await t.request.get('/api/v1/policies/pci?version=1').set(author.auth);
    expect(v1.body).toEqual(first.body);
    const list = await t.request.get('/api/v1/policies').set(author.auth);
    expect(list.body.filter((p: { name: string }) => p.name === 'pci')).toEqual([second.body]);

    // What executions record is what the API shows.
    const stored = await t.deps.policies.get('pci');
    expect(policyDigest(stored!)).toBe(second.body.digest);
  });

  it.each(['hipaa', 'default', 'legal'])('refuses the built-in name %s with 409', async (name) => {
    const res = await t.request
      .post('/api/v1/policies')
      .set(author.auth)
      .send({ ...pci, name });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/built-in policy/);
  });

  it('validates the body with 422 naming each problem', async () => {
    const res = await t.request
      .post('/api/v1/policies')
      .set(author.auth)
      .send({
        name: 'Bad Name',
        ceiling: ['repo read', 'document:*'],
        defaults: ['network:http:get'],
        output_rules: ['telepathy'],
        max_tool_calls: 0,
        colour: 'red',
      });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: (string | number)[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.ceiling.0', 'body.output_rules.0', 'body.max_tool_calls', 'body']));
    const outside = await t.request
      .post('/api/v1/policies')
      .set(author.auth)
      .send({ name: 'outside', ceiling: ['repo:read'], defaults: ['network:http:get'] });
    expect(outside.status).toBe(422);
    expect(outside.body.detail).toEqual([
      { loc: ['body', 'defaults', 0], msg: "'network:http:get' is not within the ceiling.", type: 'custom' },
    ]);
    expect((await t.request.post('/api/v1/policies').set(author.auth).send({ name: 'empty', ceiling: [] })).status).toBe(422);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await t.request.get('/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/policies', '/api/v1/policies/{name}', '/api/v1/compliance/presets', '/api/v1/compliance/keys']),
    );
    expect(doc.body.paths['/api/v1/policies'].post.responses).toHaveProperty('409');
  });
});
