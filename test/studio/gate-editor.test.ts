import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { appEnv, appPrivateKey, deliver, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { serviceAccount } from '../support/service-account.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const SECRET = 'gate-editor-secret';
const REPO = `acme/gate-editor-${randomUUID().slice(0, 8)}`;
/** A repository that gets its gate only from the YAML preview, committed as its `.github/shipgate.yml`. */
const FROM_FILE = `acme/gate-file-${randomUUID().slice(0, 8)}`;
const EVIDENCE = '{"name": "tests", "format": "junit", "rules": {"max_failed": 0}}';
/** A required check pinned to the App that must report it (docs/release-gate.md, "Checks pinned to their source"). */
const PINNED = '{"name": "lint", "app": "github-actions"}';
/** Environment names a careless YAML writer would turn into a boolean, a comment or a second key. */
const ENVIRONMENTS = {
  production: { require_attested: true },
  yes: { require_attested: false },
  'eu #1: "main"': { require_attested: true },
};

describeInBrowser('studio: the gate editor', (executablePath) => {
  let gh: FakeGitHub;
  let studio: Studio;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    studio = await startStudio(executablePath, appEnv(gh, SECRET, appPrivateKey()));
    await studio.t.request
      .put(`/api/v1/releases/gates/${REPO}`)
      .set(studio.t.admin.auth)
      .send({ required_checks: ['ci'], require_reviewed_release: false })
      .expect(201);
  });
  afterAll(async () => {
    await studio?.close();
    await gh?.close();
  });

  it('saves a new version the API then returns, shows the diff to the previous one, and its YAML sets the same gate through the App', async () => {
    // Judged by role alone (a service account): this test is about the editor, not repository access.
    const author = await serviceAccount(studio.t, 'POLICY_AUTHOR');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/repos/${REPO}/gate`);
    await studio.signIn(page, author.email, { navigate: false });
    await page.locator('h1', { hasText: `Release gate of ${REPO}` }).waitFor();
    expect(await page.title()).toContain(`Release gate of ${REPO}`);
    expect(await page.locator('#gate-required_checks').inputValue()).toBe('ci');

    // The browser checks what it can before sending: the field says what is wrong.
    await page.locator('#gate-evidence_max_age_seconds').fill('10');
    await page.locator('#gate-form button[type=submit]').click();
    await page.locator('#gate-evidence_max_age_seconds-problem', { hasText: 'Between 60 and' }).waitFor();
    expect(await page.locator('#gate-evidence_max_age_seconds').getAttribute('aria-invalid')).toBe('true');

    // What only the API knows (a rule's bounds) comes back as a 422, shown by the field its loc names.
    await page.locator('#gate-evidence_max_age_seconds').fill('1209600');
    await page.locator('#gate-required_evidence').fill(`sbom\n{"name": "tests", "format": "junit", "rules": {"max_failed": -1}}`);
    await page.locator('#gate-form button[type=submit]').click();
    await page.locator('#gate-required_evidence-problem', { hasText: 'required_evidence.1.rules.max_failed:' }).waitFor();
    expect(await page.locator('#gate-status').textContent()).toBe('Not saved.');
    expect((await studio.t.request.get(`/api/v1/releases/gates/${REPO}`).set(author.auth)).body.version).toBe(1);

    await page.locator('#gate-required_evidence').fill(`sbom\n${EVIDENCE}`);
    await page.locator('#gate-required_checks').fill(`ci\n${PINNED}`);
    await page.locator('#gate-separation_of_duties').check();
    await page.locator('#gate-environments').fill(JSON.stringify(ENVIRONMENTS));
    await page.locator('#gate-agents-accounts').fill('my-agent[bot]');
    await page.locator('#gate-agent_changes-required_human_approvals').fill('2');
    await page.locator('#gate-form button[type=submit]').click();
    await page.locator('#gate-status', { hasText: 'Saved version 2.' }).waitFor();
    expect(await page.locator('#gate-required_evidence-problem').textContent()).toBe('');

    const saved = (await studio.t.request.get(`/api/v1/releases/gates/${REPO}`).set(author.auth).expect(200)).body;
    expect(saved).toMatchObject({ version: 2, source: 'api', created_by: author.id });
    expect(saved.gate).toMatchObject({
      required_checks: ['ci', JSON.parse(PINNED)],
      required_evidence: ['sbom', JSON.parse(EVIDENCE)],
      evidence_max_age_seconds: 1209600,
      separation_of_duties: true,
      environments: ENVIRONMENTS,
      agents: { accounts: ['my-agent[bot]'] },
      agent_changes: { required_human_approvals: 2 },
    });
    const listed = (await studio.t.request.get(`/api/v1/releases/gates/${REPO}/versions`).set(author.auth).expect(200)).body;
    expect(listed.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(await page.locator('tr[data-version]').count()).toBe(2);

    // The diff between the new version and the one before it, field by field.
    const diff = page.locator('#gate-diff');
    expect(await diff.locator('caption').textContent()).toBe('Changes from version 1 to version 2');
    const row = async (path: string) => (await diff.locator(`tr[data-path="${path}"]`).allTextContents()).map((t) => t.slice(path.length));
    expect(await row('required_checks')).toEqual(['—{"app":"github-actions","name":"lint"}']);
    // A version read back shows the pinned entry as the JSON line it was written as, so saving again loses nothing.
    expect(await page.locator('#gate-required_checks').inputValue()).toBe('ci\n{"app":"github-actions","name":"lint"}');
    expect(await row('evidence_max_age_seconds')).toEqual(['6048001209600']);
    expect(await row('separation_of_duties')).toEqual(['falsetrue']);
    expect(await row('required_evidence')).toEqual(['—sbom', expect.stringMatching(/^—\{.*"name":"tests".*"max_failed":0/)]);
    expect(await row('agent_changes.required_human_approvals')).toEqual(['12']);
    expect(await diff.locator('tr[data-path="public_badge"]').count()).toBe(0);
    // Two other versions: the same version twice has no changes.
    await page.locator('#gate-diff-from').selectOption('2');
    await page.locator('#gate-diff', { hasText: 'none, both hold the same gate' }).waitFor();

    // The YAML preview, committed as .github/shipgate.yml of another repository, gives that repository the same gate.
    const yaml = (await page.locator('#gate-yaml').textContent())!;
    expect(yaml).toContain('"eu #1: \\"main\\"":');
    gh.app.installations.set(FROM_FILE, 77);
    const sha = gh.repos.commit(FROM_FILE, { files: { '.github/shipgate.yml': yaml, 'README.md': 'file\n' } });
    expect(
      (await deliver(studio.t, 'pull_request', pullRequestPayload('opened', { number: 3, sha }, FROM_FILE), { secret: SECRET })).status,
    ).toBe(202);
    await settle(studio.t);
    const fromFile = (await studio.t.request.get(`/api/v1/releases/gates/${FROM_FILE}`).set(author.auth).expect(200)).body;
    expect(fromFile).toMatchObject({ version: 1, source: 'config_file' });
    expect(fromFile.gate).toEqual(saved.gate);
    expect(fromFile.digest).toBe(saved.digest);
    expectNoProblems(problems);
  });

  it('shows a VIEWER the gate read-only, with its YAML and history, and no save button', async () => {
    const viewer = await serviceAccount(studio.t, 'VIEWER');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/repos/${REPO}/gate`);
    await studio.signIn(page, viewer.email, { navigate: false });
    await page.locator('#gate-yaml', { hasText: 'required_checks:' }).waitFor();
    expect(await page.locator('#gate-form button[type=submit]').count()).toBe(0);
    expect(await page.locator('#gate-required_checks').isDisabled()).toBe(true);
    expect(await page.locator('text=Only an ADMIN or a POLICY_AUTHOR may change the gate').count()).toBe(1);
    expect(await page.locator('tr[data-version]').count()).toBeGreaterThanOrEqual(1);
    expectNoProblems(problems);
  });
});
