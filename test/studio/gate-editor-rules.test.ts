import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { appEnv, appPrivateKey, deliver, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { serviceAccount } from '../support/service-account.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const SECRET = 'gate-editor-rules-secret';
const REPO = `acme/gate-rules-${randomUUID().slice(0, 8)}`;
/** A repository that gets its gate only from the YAML preview, committed as its `.github/shipgate.yml`. */
const FROM_FILE = `acme/gate-rules-file-${randomUUID().slice(0, 8)}`;
/** Set through the API: the form has no control for it, and saving from the form keeps it. */
const EVIDENCE_SOURCES = [`${REPO}/.github/workflows/release.yml@refs/heads/*`];

const SRE_RULE = {
  name: 'infra needs SRE',
  if: { paths: ['infra/**'], paths_ignore: ['infra/README.md'], authored_by: 'agent', base_branches: ['main'], labels: ['needs-sre'] },
  require: {
    approvals: 2,
    approvers: { users: ['ana'], teams: ['acme/sre'], permission: 'maintain', codeowners: true },
    checks: ['plan', { name: 'tfsec', app: 'github-actions' }],
    evidence: ['sbom'],
  },
};

describeInBrowser('studio: the gate editor’s rules and protected paths', (executablePath) => {
  let gh: FakeGitHub;
  let studio: Studio;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    studio = await startStudio(executablePath, appEnv(gh, SECRET, appPrivateKey()));
    await studio.t.request
      .put(`/api/v1/releases/gates/${REPO}`)
      .set(studio.t.admin.auth)
      .send({ required_checks: ['ci'], evidence_sources: EVIDENCE_SOURCES })
      .expect(201);
  });
  afterAll(async () => {
    await studio?.close();
    await gh?.close();
  });

  it('saves a gate with a rule and changed protected paths, reads it back unchanged, and its YAML sets the same gate through the App', async () => {
    const author = await serviceAccount(studio.t, 'POLICY_AUTHOR');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/repos/${REPO}/gate`);
    await studio.signIn(page, author.email, { navigate: false });
    await page.locator('h1', { hasText: `Release gate of ${REPO}` }).waitFor();
    // The protected paths are on by default, with their default list.
    expect(await page.locator('#gate-protected_paths-enabled').isChecked()).toBe(true);
    expect(await page.locator('#gate-protected_paths-paths').inputValue()).toContain('.github/workflows/**');
    expect(await page.locator('#gate-protected_paths-permission').inputValue()).toBe('maintain');
    expect(JSON.parse(await page.locator('#gate-rules').inputValue())).toEqual([]);

    // Not JSON, or a repeated name (which only the API checks), is shown by the rules field.
    await page.locator('#gate-rules').fill('[{"name": ');
    await page.locator('#gate-form button[type=submit]').click();
    await page.locator('#gate-rules-problem', { hasText: 'Not valid JSON' }).waitFor();
    await page.locator('#gate-rules').fill(JSON.stringify([SRE_RULE, { ...SRE_RULE, name: 'INFRA needs SRE' }]));
    await page.locator('#gate-form button[type=submit]').click();
    await page.locator('#gate-rules-problem', { hasText: 'rules.1.name:' }).waitFor();
    expect(await page.locator('#gate-status').textContent()).toBe('Not saved.');

    await page.locator('#gate-rules').fill(JSON.stringify([SRE_RULE, { name: 'always' }]));
    await page.locator('#gate-protected_paths-paths').fill('.github/**\ndeploy/**');
    await page.locator('#gate-protected_paths-approvals').fill('2');
    await page.locator('#gate-protected_paths-permission').selectOption('admin');
    await page.locator('#gate-form button[type=submit]').click();
    await page.locator('#gate-status', { hasText: 'Saved version 2.' }).waitFor();

    const saved = (await studio.t.request.get(`/api/v1/releases/gates/${REPO}`).set(author.auth).expect(200)).body;
    expect(saved.gate).toMatchObject({
      rules: [SRE_RULE, { name: 'always', if: { authored_by: 'any' }, require: { approvals: 0, checks: [], evidence: [] } }],
      protected_paths: { enabled: true, paths: ['.github/**', 'deploy/**'], approvals: 2, permission: 'admin' },
      evidence_sources: EVIDENCE_SOURCES,
    });
    // Read back into the form as the API answered it: saving it again changes nothing.
    expect(JSON.parse(await page.locator('#gate-rules').inputValue())).toEqual(saved.gate.rules);
    expect(await page.locator('#gate-protected_paths-permission').inputValue()).toBe('admin');
    await page.locator('#gate-form button[type=submit]').click();
    await page.locator('#gate-status', { hasText: 'Nothing to save: version 2 already holds this gate.' }).waitFor();
    // The diff to the version before names each rule added.
    const added = await page.locator('#gate-diff tr[data-path="rules"]').allTextContents();
    expect(added).toEqual([expect.stringContaining('"name":"infra needs SRE"'), expect.stringContaining('"name":"always"')]);

    // Turning the protected paths off is explicit, and is kept.
    await page.locator('#gate-protected_paths-enabled').uncheck();
    await page.locator('#gate-form button[type=submit]').click();
    await page.locator('#gate-status', { hasText: 'Saved version 3.' }).waitFor();
    const off = (await studio.t.request.get(`/api/v1/releases/gates/${REPO}`).set(author.auth).expect(200)).body;
    expect(off.gate.protected_paths.enabled).toBe(false);
    expect(off.gate.rules).toEqual(saved.gate.rules);

    // The YAML preview, committed as .github/shipgate.yml of another repository, gives that repository the same gate.
    const yaml = (await page.locator('#gate-yaml').textContent())!;
    expect(yaml).toContain('\nrules:\n  - ');
    expect(yaml).toContain('    name: "infra needs SRE"\n');
    gh.app.installations.set(FROM_FILE, 78);
    const sha = gh.repos.commit(FROM_FILE, { files: { '.github/shipgate.yml': yaml, 'README.md': 'file\n' } });
    expect(
      (await deliver(studio.t, 'pull_request', pullRequestPayload('opened', { number: 4, sha }, FROM_FILE), { secret: SECRET })).status,
    ).toBe(202);
    await settle(studio.t);
    const fromFile = (await studio.t.request.get(`/api/v1/releases/gates/${FROM_FILE}`).set(author.auth).expect(200)).body;
    expect(fromFile).toMatchObject({ version: 1, source: 'config_file' });
    expect(fromFile.gate).toEqual(off.gate);
    expect(fromFile.digest).toBe(off.digest);
    expectNoProblems(problems);
  });
});
