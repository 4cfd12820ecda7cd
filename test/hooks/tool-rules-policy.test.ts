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
  it('refuse globs whose braces expand past 2,048 characters each, or past 128 KiB in all, at the glob that passes (422)', async () => {
    const wide = await create({
      name: 'wide-rules',
      ceiling: ['shell:exec'],
      tool_rules: [{ match: { command: `{a,b}{c,d}{e,f}{g,h}${'*x'.repeat(64)}` }, verdict: 'deny' }],
    });
    expect(wide.status).toBe(422);
    expect(wide.body.detail[0]).toMatchObject({
      loc: ['body', 'tool_rules', 0, 'match', 'command'],
      msg: 'Not a glob shipgate reads: its braces expand to more than 2048 characters of globs.',
    });
    // Each 16 x 120 = 1,920 characters: 68 of them pass the budget, at the 69th (the 35th rule's command).
    const glob = (i: number) => `{a,b}{c,d}{e,f}{g,h}${'*x'.repeat(57)}${String(i).padStart(2, '0')}`;
    const tool_rules = Array.from({ length: 40 }, (_, i) => ({ match: { command: glob(2 * i), tool: glob(2 * i + 1) }, verdict: 'deny' }));
    const many = await create({ name: 'many-rules', ceiling: ['shell:exec'], tool_rules });
    expect([many.status, many.body.detail]).toEqual([
      422,
      [
        {
          loc: ['body', 'tool_rules', 34, 'match', 'command'],
          msg: "The tool rules' globs, braces expanded, add up to more than 131072 characters here: list fewer globs, or fewer alternatives in braces.",
          type: 'custom',
        },
      ],
    ]);
    await create({ name: 'many-rules', ceiling: ['shell:exec'], tool_rules: tool_rules.slice(0, 34) }).expect(201);
  });
});
