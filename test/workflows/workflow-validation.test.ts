import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';

let t: TestApp;
let operator: TestUser;

beforeAll(async () => {
  t = await createTestApp({ SHIPGATE_DEFAULT_PROVIDER: 'openai', SHIPGATE_DEFAULT_MODEL: 'gpt-4o' });
  operator = await t.user('OPERATOR');
});
afterAll(async () => {
  await t.close();
});

const stage = (fields: Record<string, unknown> = {}) => ({ name: 'work', task: 'Do the work.', ...fields });
const post = (body: Record<string, unknown>) => t.request.post('/api/v1/workflows').set(operator.auth).send(body);
const workflow = (fields: Record<string, unknown> = {}) => ({ name: 'wf', stages: [stage()], ...fields });
type Detail = { loc: (string | number)[]; msg: string };
const locs = (res: { body: { detail: Detail[] } }) => res.body.detail.map((d) => d.loc);

/** Accepted at the limit, 422 with `loc` one past it. */
async function edge(at: Record<string, unknown>, past: Record<string, unknown>, loc: (string | number)[]) {
  const ok = await post(at);
  expect(`${ok.status} ${JSON.stringify(ok.body).slice(0, 300)}`).toMatch(/^201 /);
  const refused = await post(past);
  expect(refused.status).toBe(422);
  expect(locs(refused)).toEqual([loc]);
}

describe('POST /workflows: every limit at its edge', () => {
  it('name 1-160', async () => {
    await edge(workflow({ name: 'n'.repeat(160) }), workflow({ name: 'n'.repeat(161) }), ['body', 'name']);
    await edge(workflow({ name: 'n' }), workflow({ name: '' }), ['body', 'name']);
  });

  it('description at most 400', async () => {
    await edge(workflow({ description: 'd'.repeat(400) }), workflow({ description: 'd'.repeat(401) }), ['body', 'description']);
  });

  it('1-12 stages', async () => {
    const stages = (n: number) => Array.from({ length: n }, (_, i) => stage({ name: `s${i}` }));
    await edge(workflow({ stages: stages(12) }), workflow({ stages: stages(13) }), ['body', 'stages']);
    await edge(workflow({ stages: stages(1) }), workflow({ stages: [] }), ['body', 'stages']);
  });

  it('stage name 1-120, task required', async () => {
    const at = (s: Record<string, unknown>) => workflow({ stages: [stage(), stage(s)] });
    await edge(at({ name: 'x'.repeat(120) }), at({ name: 'x'.repeat(121) }), ['body', 'stages', 1, 'name']);
    const noTask = await post(workflow({ stages: [stage(), { name: 'no task' }] }));
    expect([noTask.status, locs(noTask)]).toEqual([422, [['body', 'stages', 1, 'task']]]);
  });

  it('budget_cents 100-1000000, default 1500', async () => {
    const at = (budget_cents: number) => workflow({ stages: [stage({ budget_cents })] });
    await edge(at(100), at(99), ['body', 'stages', 0, 'budget_cents']);
    await edge(at(1_000_000), at(1_000_001), ['body', 'stages', 0, 'budget_cents']);
    expect((await post(workflow())).body.stages[0].budget_cents).toBe(1500);
  });

  it('api_key at least 8 characters, never returned', async () => {
    const at = (api_key: string) => workflow({ stages: [stage({ api_key })] });
    await edge(at('k'.repeat(8)), at('k'.repeat(7)), ['body', 'stages', 0, 'api_key']);
    const res = await post(at('sk-secret-stage-key'));
    expect(JSON.stringify(res.body)).not.toContain('sk-secret-stage-key');
    const stored = await t.database.db('workflow_stages').where({ workflow_id: res.body.id }).first();
    expect(stored.api_key_ciphertext).toMatch(/^v1\./);
    expect(stored.api_key_ciphertext).not.toContain('sk-secret-stage-key');
  });

  it('provider openai|anthropic, stage_role one of four, compliance_policy known', async () => {
    const bad = await post(
      workflow({ stages: [stage({ provider: 'mistral' }), stage({ stage_role: 'boss' }), stage({ compliance_policy: 'nope' })] }),
    );
    expect(bad.status).toBe(422);
    expect(locs(bad)).toEqual([
      ['body', 'stages', 0, 'provider'],
      ['body', 'stages', 1, 'stage_role'],
    ]);
    const unknownPolicy = await post(workflow({ stages: [stage(), stage({ compliance_policy: 'nope' })] }));
    expect([unknownPolicy.status, locs(unknownPolicy)]).toEqual([422, [['body', 'stages', 1, 'compliance_policy']]]);
  });
});

describe('POST /workflows: stage ids and the reviewed-release shape', () => {
  const review = stage({ id: 'review', stage_role: 'reviewer' });

  it('generates ids when absent and keeps given ones', async () => {
    const res = await post(workflow({ stages: [review, stage()] }));
    expect(res.status).toBe(201);
    expect(res.body.stages[0].id).toBe('review');
    expect(res.body.stages[1].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses ids outside ^[A-Za-z0-9._-]{1,64}$', async () => {
    await edge(workflow({ stages: [stage({ id: 'a'.repeat(64) })] }), workflow({ stages: [stage({ id: 'a'.repeat(65) })] }), [
      'body',
      'stages',
      0,
      'id',
    ]);
    const spaced = await post(workflow({ stages: [stage({ id: 'has space' })] }));
    expect(locs(spaced)).toEqual([['body', 'stages', 0, 'id']]);
  });

  it('refuses duplicate, unknown and forward upstream ids, pointing at the field', async () => {
    const dup = await post(workflow({ stages: [stage({ id: 'a' }), stage({ id: 'a' })] }));
    expect([dup.status, locs(dup)]).toEqual([422, [['body', 'stages', 1, 'id']]]);
    const unknown = await post(workflow({ stages: [stage({ id: 'a' }), stage({ upstream_stage_ids: ['a', 'ghost'] })] }));
    expect([unknown.status, locs(unknown)]).toEqual([422, [['body', 'stages', 1, 'upstream_stage_ids', 1]]]);
    const forward = await post(
      workflow({
        stages: [stage({ id: 'a' }), stage({ id: 'b' }), stage(), stage({ id: 'd', upstream_stage_ids: ['a', 'e'] }), stage({ id: 'e' })],
      }),
    );
    expect([forward.status, locs(forward)]).toEqual([422, [['body', 'stages', 3, 'upstream_stage_ids', 1]]]);
    const itself = await post(workflow({ stages: [stage({ id: 'a', upstream_stage_ids: ['a'] })] }));
    expect(locs(itself)).toEqual([['body', 'stages', 0, 'upstream_stage_ids', 0]]);
  });

  it('a release stage needs at least one upstream, every one a reviewer', async () => {
    const none = await post(workflow({ stages: [review, stage({ stage_role: 'release' })] }));
    expect([none.status, locs(none)]).toEqual([422, [['body', 'stages', 1, 'upstream_stage_ids']]]);
    const worker = await post(
      workflow({
        stages: [review, stage({ id: 'build' }), stage({ stage_role: 'release', upstream_stage_ids: ['review', 'build'] })],
      }),
    );
    expect([worker.status, locs(worker)]).toEqual([422, [['body', 'stages', 2, 'upstream_stage_ids', 1]]]);
    const ok = await post(workflow({ stages: [review, stage({ id: 'ship', stage_role: 'release', upstream_stage_ids: ['review'] })] }));
    expect(ok.status).toBe(201);
    expect(ok.body.stages.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['review', 'pending'],
      ['ship', 'pending'],
    ]);
  });

  it('repo_root and commit_sha together, normalised as the gate does', async () => {
    const sha = 'ABCDEF0123456789abcdef0123456789ABCDEF01';
    const res = await post(workflow({ repo_root: 'https://github.com/Acme/Shop', commit_sha: sha }));
    expect(res.body).toMatchObject({ status: 'queued', repo_root: 'acme/shop', commit_sha: sha.toLowerCase() });
    const half = await post(workflow({ repo_root: 'acme/shop' }));
    expect([half.status, locs(half)]).toEqual([422, [['body', 'commit_sha']]]);
  });
});

describe('POST /workflows: permissions are lenient', () => {
  it('keeps what the policy and the stage role allow and shows what was dropped', async () => {
    const res = await post(
      workflow({
        stages: [
          stage({
            id: 'r',
            stage_role: 'reviewer',
            compliance_policy: 'hipaa',
            permissions: ['repo:read', 'network:http:get', 'release:write'],
          }),
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.stages[0]).toMatchObject({
      compliance_policy: 'hipaa',
      permissions: ['repo:read'],
      dropped_permissions: [
        expect.objectContaining({ permission: 'network:http:get', reason: 'forbidden_by_policy' }),
        expect.objectContaining({ permission: 'release:write', reason: 'exceeds_role_allowance' }),
      ],
    });
  });

  it('is answered 403 for roles that may not create workflows', async () => {
    const viewer = await t.user('VIEWER');
    const res = await t.request.post('/api/v1/workflows').set(viewer.auth).send(workflow());
    expect(res.status).toBe(403);
  });
});
