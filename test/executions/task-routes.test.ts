import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';

let t: TestApp;
let operator: TestUser;
const sha = 'ABCDEF0123456789abcdef0123456789ABCDEF01';

beforeAll(async () => {
  t = await createTestApp({ SHIPGATE_DEFAULT_PROVIDER: 'openai', SHIPGATE_DEFAULT_MODEL: 'gpt-4o' });
  operator = await t.user('OPERATOR');
});
afterAll(async () => {
  await t.close();
});

const post = (user: TestUser, body: Record<string, unknown>) => t.request.post('/api/v1/tasks').set(user.auth).send(body);
const locs = (res: { body: { detail: { loc: (string | number)[] }[] } }) => res.body.detail.map((d) => d.loc.join('.'));

describe('POST /tasks', () => {
  it('queues an execution with the defaults, resolved permissions, normalised repo and a queued job', async () => {
    const res = await post(operator, { task: 'Summarise the release.', repo_root: 'https://github.com/Acme/Shop', commit_sha: sha });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/v1/executions/${res.body.id}`);
    expect(res.body).toMatchObject({
      owner_id: operator.id,
      task: 'Summarise the release.',
      status: 'queued',
      verdict: null,
      policy: { name: 'default', version: 1, digest: expect.stringMatching(/^[0-9a-f]{64}$/) },
      stage_role: 'worker',
      permissions: ['*'],
      dropped_permissions: [],
      budget_cents: 1500,
      cost_cents: 0,
      provider: 'openai',
      model: 'gpt-4o',
      api_key_override: false,
      upstream_execution_ids: [],
      repo_root: 'acme/shop',
      commit_sha: sha.toLowerCase(),
      tool_calls: [],
      certificates: [],
      artifacts: [],
      output: null,
      error: null,
    });
    const jobs = await t.database.db.raw(`SELECT j.payload FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks k ON k.id = j.task_id WHERE k.identifier = 'run_execution'`);
    expect(jobs.rows.map((r: { payload: unknown }) => r.payload)).toContainEqual({ execution_id: res.body.id });
  });

  it("uses the provider's own default model when another provider is named, and records the policy it resolved", async () => {
    const res = await post(operator, {
      task: 'x',
      provider: 'anthropic',
      compliance_policy: 'legal',
      permissions: ['repo:read'],
      budget_cents: 100,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      provider: 'anthropic',
      model: 'claude-3-5-haiku-latest',
      policy: { name: 'legal_privilege' },
      permissions: ['repo:read'],
      budget_cents: 100,
    });
  });

  it('refuses with 403 and every denied permission when the request exceeds the policy (strict)', async () => {
    const res = await post(operator, {
      task: 'x',
      compliance_policy: 'hipaa',
      permissions: ['repo:read', 'network:http:get', '*', 'deploy:prod'],
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      detail: {
        message: "Requested permissions exceed the ceiling of policy 'hipaa'",
        denied: [
          { permission: 'network:http:get', reason: 'forbidden_by_policy', detail: expect.any(String) },
          { permission: '*', reason: 'wildcard_denied_under_compliance', detail: expect.any(String) },
          { permission: 'deploy:prod', reason: 'exceeds_policy_ceiling', detail: expect.any(String) },
        ],
      },
    });
    const roleDenied = await post(operator, { task: 'x', stage_role: 'release', permissions: ['review:submit'] });
    expect(roleDenied.status).toBe(403);
    expect(roleDenied.body.detail.denied).toEqual([
      { permission: 'review:submit', reason: 'exceeds_role_allowance', detail: expect.any(String) },
    ]);
    const count = await t.database
      .db('executions')
      .where({ owner_id: operator.id, policy_name: 'hipaa' })
      .count<{ count: number }[]>('* as count');
    expect(count[0].count).toBe(0);
  });

  it('answers 422 with the location of each invalid field', async () => {
    const unknownPolicy = await post(operator, { task: 'x', compliance_policy: 'gdpr' });
    expect(unknownPolicy.status).toBe(422);
    expect(locs(unknownPolicy)).toEqual(['body.compliance_policy']);
    const bad = await post(operator, {
      task: '',
      provider: 'mistral',
      budget_cents: 99,
      api_key: 'short',
      stage_role: 'boss',
      permissions: ['net*'],
      repo_root: 'not a repo',
      commit_sha: 'abc123',
    });
    expect(bad.status).toBe(422);
    expect(locs(bad)).toEqual(
      expect.arrayContaining([
        'body.task',
        'body.provider',
        'body.budget_cents',
        'body.api_key',
        'body.stage_role',
        'body.permissions.0',
        'body.repo_root',
        'body.commit_sha',
      ]),
    );
    expect((await post(operator, { task: 'x', budget_cents: 1_000_001 })).status).toBe(422);
    expect((await post(operator, { task: 'x'.repeat(20_001) })).status).toBe(422);
    expect(locs(await post(operator, { task: 'x', unexpected: true }))).toEqual(['body']);
  });

  it("refuses a budget above the policy's max_budget_cents", async () => {
    await t.deps.policies.create(
      {
        name: 'tight',
        description: 'small budgets',
        ceiling: ['*'],
        defaults: ['*'],
        forbidden: [],
        denied_call_severity: 'warning',
        output_rules: [],
        max_tool_calls: 5,
        max_budget_cents: 500,
        retention_days: 30,
      },
      t.admin.id,
    );
    const res = await post(operator, { task: 'x', compliance_policy: 'tight', budget_cents: 501 });
    expect(res.status).toBe(422);
    expect(locs(res)).toEqual(['body.budget_cents']);
    expect((await post(operator, { task: 'x', compliance_policy: 'tight', budget_cents: 500 })).status).toBe(201);
  });

  it('is for ADMIN and OPERATOR only', async () => {
    for (const role of ['VIEWER', 'AUDITOR', 'APPROVER', 'POLICY_AUTHOR'] as const) {
      const res = await post(await t.user(role), { task: 'x' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Requires one of: ADMIN, OPERATOR' });
    }
    expect((await post(t.admin, { task: 'x' })).status).toBe(201);
    expect((await t.request.post('/api/v1/tasks').send({ task: 'x' })).status).toBe(401);
  });
});
