import { HIDDEN_CHARACTER_MESSAGE } from '../../core/visible-name.js';
import { reviewedRelease } from '../workflows/support/stage-model.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** `provisional` as an RTL override shows it, a bell, a zero-width space and an isolate. */
const DISGUISES = ['\u202Elanoisivorp', 'infra\u0007', 'infra\u200Breview', '\u2067infra\u2069'];

const refused = (loc: (string | number)[]) => ({ detail: [{ loc, msg: HIDDEN_CHARACTER_MESSAGE, type: 'custom' }] });

describe('names people read in PR comments, check runs and the studio show what they are', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(DISGUISES)('a gate rule named %j is refused at its name, and nothing is saved', async (name) => {
    const res = await t.request
      .put('/api/v1/releases/gates/acme/names')
      .set(t.admin.auth)
      .send({ rules: [{ name: 'infra review' }, { name }] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(refused(['body', 'rules', 1, 'name']));
    const gate = await t.request.get('/api/v1/releases/gates/acme/names').set(t.admin.auth);
    expect(gate.body.gate.rules).toEqual([]);
  });

  it('names in other scripts, and emoji joined by a zero-width joiner, are kept as written', async () => {
    const names = ['مراجعة البنية', 'インフラ審査', 'sre 👩‍💻 review'];
    const res = await t.request
      .put('/api/v1/releases/gates/acme/scripts')
      .set(t.admin.auth)
      .send({ rules: names.map((name) => ({ name })) });
    expect(res.status).toBeLessThan(300);
    expect(res.body.gate.rules.map((r: { name: string }) => r.name)).toEqual(names);
  });

  it('an evidence name, a required evidence name, a workflow, a stage, an agent key and an account name are refused alike', async () => {
    const commit = 'a'.repeat(40);
    const evidence = await t.request.post('/api/v1/releases/evidence').set(t.admin.auth).send({
      repo_root: 'acme/names',
      commit_sha: commit,
      kind: 'scan',
      name: '\u202Esbom',
      status: 'passed',
      produced_at: new Date().toISOString(),
    });
    expect(evidence.body).toEqual(refused(['body', 'name']));
    const required = await t.request
      .put('/api/v1/releases/gates/acme/names')
      .set(t.admin.auth)
      .send({ required_evidence: [{ name: 'sbom\u200B', format: 'cyclonedx' }] });
    expect(required.body).toEqual(refused(['body', 'required_evidence', 0, 'name']));
    const workflow = await t.request
      .post('/api/v1/workflows')
      .set(t.admin.auth)
      .send(reviewedRelease({ name: 'v1\u202E' }));
    expect(workflow.body).toEqual(refused(['body', 'name']));
    const stages = reviewedRelease().stages.map((s, i) => (i === 1 ? { ...s, name: 'Re\u0000lease' } : s));
    const stage = await t.request.post('/api/v1/workflows').set(t.admin.auth).send(reviewedRelease({ stages }));
    expect(stage.body).toEqual(refused(['body', 'stages', 1, 'name']));
    const key = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'copilot\u2066', repo_root: 'acme/names', compliance_policy: 'default' });
    expect(key.body).toEqual(refused(['body', 'name']));
    const account = await t.request
      .post('/api/v1/auth/register')
      .send({ email: 'rtl@example.com', name: 'Ana\u202E', password: 'correct horse battery' });
    expect(account.body).toEqual(refused(['body', 'name']));
    expect([evidence, required, workflow, stage, key, account].map((r) => r.status)).toEqual([422, 422, 422, 422, 422, 422]);
  });
});
