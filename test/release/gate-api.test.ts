import { ROLES } from '../../core/accounts/roles.js';
import { ValidationError } from '../../core/errors.js';
import { DEFAULT_GATE, gateDigest } from '../../core/release/gate.js';
import { setGateFromFile } from '../../core/release/set-gate-from-file.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const url = (repo: string) => `/api/v1/releases/gates/${repo}`;

describe('release gates', () => {
  it('answers the defaults as version 0 for a repository without a gate, to every role', async () => {
    for (const role of ROLES) {
      const user = await t.user(role);
      const res = await t.request.get(url('acme/nogate')).set(user.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        repo_root: 'acme/nogate',
        version: 0,
        digest: gateDigest(DEFAULT_GATE),
        gate: DEFAULT_GATE,
        source: 'default',
        created_by: null,
        created_by_name: null,
        created_at: null,
      });
    }
    expect((await t.request.get(url('acme/nogate'))).status).toBe(401);
  });

  it('lets ADMIN and POLICY_AUTHOR set it, and nobody else', async () => {
    const author = await t.user('POLICY_AUTHOR');
    expect(
      (
        await t.request
          .put(url('acme/roles'))
          .set(author.auth)
          .send({ required_checks: ['ci'] })
      ).status,
    ).toBe(201);
    expect(
      (
        await t.request
          .put(url('acme/roles'))
          .set(t.admin.auth)
          .send({ required_checks: ['ci', 'lint'] })
      ).status,
    ).toBe(201);
    for (const role of ['OPERATOR', 'APPROVER', 'AUDITOR', 'VIEWER'] as const) {
      const res = await t.request
        .put(url('acme/roles'))
        .set((await t.user(role)).auth)
        .send({ required_checks: [] });
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe('Requires one of: ADMIN, POLICY_AUTHOR');
    }
  });

  it('keeps every version with its digest; an unchanged gate records nothing; names are case-insensitive', async () => {
    const first = await t.request
      .put(url('Acme/Versions'))
      .set(t.admin.auth)
      .send({ required_checks: ['ci'] });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      repo_root: 'acme/versions',
      version: 1,
      source: 'api',
      created_by: t.admin.id,
      gate: { ...DEFAULT_GATE, required_checks: ['ci'] },
    });
    const same = await t.request
      .put(url('acme/versions'))
      .set(t.admin.auth)
      .send({ required_checks: ['ci'] });
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(1);
    const second = await t.request
      .put(url('acme/versions'))
      .set(t.admin.auth)
      .send({ required_checks: ['ci'], public_badge: false });
    expect(second.body.version).toBe(2);
    expect(second.body.digest).not.toBe(first.body.digest);
    expect(second.body.digest).toBe(gateDigest(second.body.gate));
    expect((await t.request.get(url('ACME/versions')).set(t.admin.auth)).body).toEqual(second.body);
    expect((await t.request.get(`${url('acme/versions')}?version=1`).set(t.admin.auth)).body).toEqual(first.body);
    expect((await t.request.get(`${url('acme/versions')}?version=9`).set(t.admin.auth)).status).toBe(404);
    // Past PostgreSQL's integer: refused at its parameter, not by the database for the whole request.
    for (const query of ['version=2147483648', 'before=99999999999']) {
      const res = await t.request.get(`${url('acme/versions')}${query.startsWith('before') ? '/versions' : ''}?${query}`).set(t.admin.auth);
      expect([query, res.status, res.body.detail?.[0]?.loc]).toEqual([query, 422, ['query', query.split('=')[0]]]);
    }
  });

  it.each([
    [{ required_checks: 'ci' }, ['body', 'required_checks']],
    [{ required_checks: ['ci', 'ci'] }, ['body', 'required_checks']],
    [{ evidence_max_age_seconds: 5 }, ['body', 'evidence_max_age_seconds']],
    [{ public_badge: 'yes' }, ['body', 'public_badge']],
    [{ unknown_field: true }, ['body']],
  ])('answers 422 for %p', async (body, loc) => {
    const res = await t.request.put(url('acme/invalid')).set(t.admin.auth).send(body);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(loc);
  });

  it('accepts a required check pinned to its App (slug or numeric id), and refuses a bad entry with a clear 422', async () => {
    const pinned = [{ name: 'build', app: 'GitHub-Actions' }, { name: 'deploy', app: 15368 }, 'lint'];
    const res = await t.request.put(url('acme/pinned')).set(t.admin.auth).send({ required_checks: pinned });
    expect(res.status).toBe(201);
    expect(res.body.gate.required_checks).toEqual([{ name: 'build', app: 'github-actions' }, { name: 'deploy', app: 15368 }, 'lint']);
    const refusals = [
      [{ name: 'build', app: '' }, ['body', 'required_checks', 0, 'app'], /slug .*or its numeric id/],
      [{ name: 'build', app: 0 }, ['body', 'required_checks', 0, 'app'], /expected number to be >0/],
      [{ name: 'build' }, ['body', 'required_checks', 0], /An object entry needs `app` .*, `paths` .*, or both/],
      [{ name: 'build', app: 'github-actions', source: 'x' }, ['body', 'required_checks', 0], /Unrecognized key/],
      [['build', { name: 'build', app: 'github-actions' }], ['body', 'required_checks'], /Names must be unique/],
    ] as const;
    for (const [entry, loc, msg] of refusals) {
      const bad = await t.request
        .put(url('acme/pinned'))
        .set(t.admin.auth)
        .send({ required_checks: Array.isArray(entry) ? entry : [entry] });
      expect([bad.status, bad.body.detail[0].loc]).toEqual([422, loc]);
      expect(bad.body.detail[0].msg).toMatch(msg);
    }
  });

  it('accepts a conditional required check ({name, paths}, optionally with app) and skipped_is_success, and refuses bad ones with a clear 422', async () => {
    const conditional = [{ name: 'e2e', paths: ['src/**', '*.tf'] }, { name: 'deploy', app: 'github-actions', paths: ['infra/'] }, 'lint'];
    const res = await t.request
      .put(url('acme/conditional'))
      .set(t.admin.auth)
      .send({ required_checks: conditional, skipped_is_success: false });
    expect(res.status).toBe(201);
    expect(res.body.gate).toMatchObject({ required_checks: conditional, skipped_is_success: false });
    expect((await t.request.get(url('acme/conditional-default')).set(t.admin.auth)).body.gate.skipped_is_success).toBe(true);
    const refusals = [
      [{ name: 'e2e', paths: [] }, ['body', 'required_checks', 0, 'paths'], /expected array to have >=1 items/],
      [{ name: 'e2e', paths: ['!src/**'] }, ['body', 'required_checks', 0, 'paths', 0], /Negation/],
      [{ name: 'e2e', paths: 'src/**' }, ['body', 'required_checks', 0], /\{name, paths\}/],
    ] as const;
    for (const [entry, loc, msg] of refusals) {
      const bad = await t.request
        .put(url('acme/conditional'))
        .set(t.admin.auth)
        .send({ required_checks: [entry] });
      expect([bad.status, bad.body.detail[0].loc]).toEqual([422, loc]);
      expect(bad.body.detail[0].msg).toMatch(msg);
    }
    const notBoolean = await t.request.put(url('acme/conditional')).set(t.admin.auth).send({ skipped_is_success: 'no' });
    expect([notBoolean.status, notBoolean.body.detail[0].loc]).toEqual([422, ['body', 'skipped_is_success']]);
  });

  it('answers 422 for a path that is not a repository', async () => {
    expect((await t.request.get(url('-bad/repo')).set(t.admin.auth)).status).toBe(422);
    expect((await t.request.put(url('acme/..')).set(t.admin.auth).send({})).status).toBe(422);
  });
});

describe('setGateFromFile (.github/shipgate.yml, for the App)', () => {
  it('sets the gate from YAML as a config_file version', async () => {
    const { version, created } = await setGateFromFile(
      t.deps.release.store,
      'https://github.com/Acme/FromFile',
      'required_checks:\n  - ci/test\nseparation_of_duties: true\n',
    );
    expect(created).toBe(true);
    expect(version).toMatchObject({ repo_root: 'acme/fromfile', version: 1, source: 'config_file', created_by: null });
    const res = await t.request.get(url('acme/fromfile')).set(t.admin.auth);
    expect(res.body.gate).toEqual({ ...DEFAULT_GATE, required_checks: ['ci/test'], separation_of_duties: true });
    expect(
      (await setGateFromFile(t.deps.release.store, 'acme/fromfile', 'required_checks: [ci/test]\nseparation_of_duties: true')).created,
    ).toBe(false);
  });

  it('treats an empty file as the default gate', async () => {
    const { version } = await setGateFromFile(t.deps.release.store, 'acme/empty-file', '');
    expect(version.gate).toEqual(DEFAULT_GATE);
  });

  it('refuses invalid YAML and invalid fields with locations inside the file', async () => {
    await expect(setGateFromFile(t.deps.release.store, 'acme/bad-file', 'required_checks: [unclosed')).rejects.toBeInstanceOf(
      ValidationError,
    );
    const error = await setGateFromFile(t.deps.release.store, 'acme/bad-file', 'evidence_max_age_seconds: soon').catch(
      (e: ValidationError) => e,
    );
    expect((error as ValidationError).issues[0].loc).toEqual(['.github/shipgate.yml', 'evidence_max_age_seconds']);
    expect(await t.deps.release.store.latestGate('acme/bad-file')).toBeNull();
  });
});
