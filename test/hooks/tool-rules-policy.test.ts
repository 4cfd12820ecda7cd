import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t?.close());

const create = (body: Record<string, unknown>) => t.request.post('/api/v1/policies').set(t.admin.auth).send(body);

describe("a policy's tool_rules (POST /api/v1/policies)", () => {
  it('are stored and answered in order, with ask_timeout_seconds accepted for an ask rule alone', async () => {
    const tool_rules = [
      { match: { command: 'git push --force*' }, verdict: 'deny' },
      { match: { write: '.github/workflows/**', tool: 'Write' }, verdict: 'ask' },
    ];
    const res = await create({ name: 'rules-kept', ceiling: ['shell:exec', 'fs:*'], tool_rules, ask_timeout_seconds: 30 }).expect(201);
    expect(res.body).toMatchObject({ tool_rules, ask_timeout_seconds: 30 });
    const read = await t.request.get('/api/v1/policies/rules-kept').set(t.admin.auth).expect(200);
    expect(read.body.tool_rules).toEqual(tool_rules);
  });

  it('leave a policy without them exactly as before: no field, the same digest as without the feature', async () => {
    const res = await create({ name: 'no-rules', ceiling: ['shell:exec'] }).expect(201);
    expect(res.body).not.toHaveProperty('tool_rules');
    expect(res.body).not.toHaveProperty('ask_timeout_seconds');
    const withEmpty = await create({ name: 'no-rules', ceiling: ['shell:exec'], tool_rules: [] }).expect(201);
    expect(withEmpty.body.digest).not.toBe(res.body.digest); // another version...
    expect({ ...withEmpty.body, version: 1, digest: null }).toEqual({ ...res.body, digest: null }); // ...of the same content
  });

  it('refuse a glob shipgate cannot read (an open bracket, a range out of order (a 500 before), an extglob), a negation, an empty match, an unknown field or verdict (422)', async () => {
    for (const rule of [
      { match: { write: '[' }, verdict: 'deny' },
      { match: { read: '[z-a]' }, verdict: 'deny' },
      { match: { host: 'api.[9-0].example' }, verdict: 'deny' },
      { match: { command: '@(git|hg) push*' }, verdict: 'deny' },
      { match: { read: '!.env' }, verdict: 'deny' },
      { match: {}, verdict: 'deny' },
      { match: { path: 'x' }, verdict: 'deny' },
      { match: { command: 'ls' }, verdict: 'maybe' },
    ]) {
      const res = await create({ name: 'bad-rules', ceiling: ['shell:exec'], tool_rules: [rule] });
      expect([JSON.stringify(rule), res.status]).toEqual([JSON.stringify(rule), 422]);
    }
    const timeoutAlone = await create({
      name: 'bad-rules',
      ceiling: ['shell:exec'],
      tool_rules: [{ match: { command: 'x' }, verdict: 'deny' }],
      ask_timeout_seconds: 30,
    });
    expect(timeoutAlone.status).toBe(422);
  });
});
