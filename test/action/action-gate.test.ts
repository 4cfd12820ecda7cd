import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { checkRun, decide, putGate, sha, upload } from '../support/release-api.js';
import { listen, runAction } from './support/run-action.js';

// The bundled Action, run as a runner runs it, against a real shipgate on a loopback port.
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let viewer: TestUser;
let operator: TestUser;
const CHECKS = 'acme/widgets';
const SBOM = 'acme/sbom-gated';
const PUBLIC_URL = 'https://shipgate.example';

beforeAll(async () => {
  // The decision's link is the service's public URL, not the address the Action reached it at.
  t = await createTestApp({ SHIPGATE_PUBLIC_URL: PUBLIC_URL });
  server = await listen(t.app);
  [viewer, operator] = [await t.user('VIEWER'), await t.user('OPERATOR')];
  await putGate(t, CHECKS, { required_checks: ['build'], required_evidence: [], require_reviewed_release: false });
  await putGate(t, SBOM, { required_checks: ['build'], required_evidence: ['sbom'], require_reviewed_release: false });
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const gateInputs = (key: string, extra: Record<string, string> = {}) => ({ 'api-url': server.url, 'api-key': key, ...extra });
const passed = (repo: string, commit: string, name = 'build') => checkRun(t, { repo_root: repo, commit_sha: commit, name });
const failed = (repo: string, commit: string) => checkRun(t, { repo_root: repo, commit_sha: commit, name: 'build', conclusion: 'failure' });

describe('gating a job', () => {
  it('SHIP: exit 0 with the outputs and a summary', async () => {
    const commit = sha('action-ship');
    await passed(CHECKS, commit);
    const run = await runAction(gateInputs(viewer.key, { 'commit-sha': commit }));
    expect([run.code, run.log]).toEqual([0, expect.stringContaining(`shipgate decision for ${CHECKS}@${commit}: SHIP`)]);
    const snapshot = (await decide(t, CHECKS, commit)).snapshot_id;
    expect(run.outputs).toEqual({
      decision: 'SHIP',
      'snapshot-id': snapshot,
      blockers: '[]',
      'decision-url': `${PUBLIC_URL}/studio#/releases/${CHECKS}/${commit}`,
    });
    expect(run.summary).toContain('shipgate: ✅ SHIP');
    expect(run.summary).toContain(`href="${PUBLIC_URL}/studio#/releases/${CHECKS}/${commit}"`);
  });

  it('NO_SHIP: exit 1 with the blockers in the log and in the summary table', async () => {
    const commit = sha('action-no-ship');
    await failed(CHECKS, commit);
    const run = await runAction(gateInputs(viewer.key, { 'commit-sha': commit }));
    expect(run.code).toBe(1);
    expect(run.log).toContain(
      `::error::shipgate decided NO_SHIP for ${CHECKS}@${commit.slice(0, 12)}: required_check_failed (check:build)`,
    );
    expect(run.log).toMatch(/blocker required_check_failed \[check:build\]: .+ Remediation: .+/);
    expect(run.outputs.decision).toBe('NO_SHIP');
    const [blocker] = JSON.parse(run.outputs.blockers);
    expect(blocker).toMatchObject({ code: 'required_check_failed', component: 'check:build' });
    expect(run.summary).toContain('shipgate: ❌ NO_SHIP');
    expect(run.summary).toMatch(/<th>Blocker<\/th><th>Component<\/th><th>Reason<\/th><th>Remediation<\/th>/);
    expect(run.summary).toContain(`<td>required_check_failed</td><td>check:build</td>`);
    expect(run.summary).toContain(blocker.remediation_suggestion.replace(/'/g, '&#39;').replace(/"/g, '&#34;'));
  });

  it('fail-on-no-ship: false lets the job go on, with the decision in the outputs and a warning', async () => {
    const commit = sha('action-no-ship');
    const run = await runAction(gateInputs(viewer.key, { 'commit-sha': commit, 'fail-on-no-ship': 'false' }));
    expect(run.code).toBe(0);
    expect(run.outputs.decision).toBe('NO_SHIP');
    expect(run.log).toContain('::warning::shipgate decided NO_SHIP');
  });

  it('takes the pull request head SHA from the event payload, not the merge commit in GITHUB_SHA', async () => {
    const head = sha('action-pr-head');
    await passed(CHECKS, head);
    const env = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_SHA: sha('action-pr-merge'), GITHUB_REF: 'refs/pull/7/merge' };
    const run = await runAction(gateInputs(viewer.key), {
      env,
      event: { action: 'synchronize', pull_request: { number: 7, head: { sha: head } } },
    });
    expect([run.code, run.outputs.decision, run.outputs['decision-url']]).toEqual([
      0,
      'SHIP',
      `${PUBLIC_URL}/studio#/releases/${CHECKS}/${head}`,
    ]);
  });

  it("takes the merge group's head SHA in a merge queue, and GITHUB_SHA otherwise", async () => {
    const [group, plain] = [sha('action-merge-group'), sha('action-push')];
    await passed(CHECKS, group);
    await passed(CHECKS, plain);
    const queued = await runAction(gateInputs(viewer.key), {
      env: { GITHUB_EVENT_NAME: 'merge_group' },
      event: { merge_group: { head_sha: group } },
    });
    expect(queued.outputs['decision-url']).toContain(group);
    const pushed = await runAction(gateInputs(viewer.key), { env: { GITHUB_SHA: plain } });
    expect([pushed.code, pushed.outputs['decision-url']]).toEqual([0, expect.stringContaining(plain)]);
  });
});

describe('wait-timeout', () => {
  it('keeps asking while evidence is missing: evidence arriving during the wait turns NO_SHIP into SHIP', async () => {
    const commit = sha('action-wait-arrives');
    await passed(SBOM, commit);
    const running = runAction(
      gateInputs(viewer.key, { repository: SBOM, 'commit-sha': commit, 'wait-timeout': '60', 'poll-interval': '1' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await upload(t, { repo_root: SBOM, commit_sha: commit, name: 'sbom' }, operator);
    const run = await running;
    expect(run.log).toContain('NO_SHIP for now, waiting for: required_evidence_missing (evidence:sbom)');
    expect([run.code, run.outputs.decision]).toEqual([0, 'SHIP']);
    expect(run.ms).toBeLessThan(20_000);
  });

  it('stops waiting at once on a real failure', async () => {
    const commit = sha('action-wait-fails');
    await failed(SBOM, commit);
    const run = await runAction(
      gateInputs(viewer.key, { repository: SBOM, 'commit-sha': commit, 'wait-timeout': '60', 'poll-interval': '5' }),
    );
    expect([run.code, run.outputs.decision]).toEqual([1, 'NO_SHIP']);
    expect(run.log).not.toContain('waiting for');
    expect(run.ms).toBeLessThan(5_000);
  });

  it('gives up when the wait-timeout passes with the evidence still missing', async () => {
    const commit = sha('action-wait-expires');
    await passed(SBOM, commit);
    const run = await runAction(
      gateInputs(viewer.key, { repository: SBOM, 'commit-sha': commit, 'wait-timeout': '2', 'poll-interval': '1' }),
    );
    expect([run.code, run.outputs.decision]).toEqual([1, 'NO_SHIP']);
    expect(run.log).toContain('required_evidence_missing (evidence:sbom)');
    expect(run.ms).toBeGreaterThanOrEqual(2_000);
    expect(run.ms).toBeLessThan(8_000);
  });
});

describe('evidence mode', () => {
  it("records evidence-file's SHA-256 as the digest, then decides with it", async () => {
    const commit = sha('action-evidence');
    await passed(SBOM, commit);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sbom-')), 'sbom.spdx.json');
    const document = {
      spdxVersion: 'SPDX-2.3',
      dataLicense: 'CC0-1.0',
      SPDXID: 'SPDXRef-DOCUMENT',
      name: 'widgets',
      documentNamespace: 'https://acme.example/spdx/widgets',
      creationInfo: { created: '2026-01-01T00:00:00Z', creators: ['Tool: syft'] },
      packages: [],
    };
    fs.writeFileSync(file, JSON.stringify(document));
    const digest = `sha256:${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`;
    const run = await runAction(
      gateInputs(operator.key, {
        repository: SBOM,
        'commit-sha': commit,
        'evidence-name': 'sbom',
        'evidence-kind': 'sbom',
        'evidence-file': file,
      }),
    );
    expect(run.log).toContain(`Recorded evidence "sbom" (passed, ${digest}) for ${SBOM}@${commit}.`);
    expect([run.code, run.outputs.decision]).toEqual([0, 'SHIP']);
    expect(run.summary).toContain(`<code>${digest}</code>`);
    const decision = await decide(t, SBOM, commit);
    expect(decision.provenance.evidence).toEqual([
      expect.objectContaining({
        name: 'sbom',
        kind: 'sbom',
        status: 'passed',
        digest,
        uri: 'https://github.com/acme/widgets/actions/runs/4242',
      }),
    ]);
  });

  it('with decide: false only records the evidence (a failed one here): no decision, exit 0', async () => {
    const commit = sha('action-evidence-only');
    const run = await runAction(
      gateInputs(operator.key, {
        repository: SBOM,
        'commit-sha': commit,
        'evidence-name': 'sbom',
        'evidence-status': 'failed',
        decide: 'false',
      }),
    );
    expect([run.code, run.outputs]).toEqual([0, {}]);
    expect((await decide(t, SBOM, commit)).provenance.evidence).toEqual([
      expect.objectContaining({ name: 'sbom', status: 'failed', digest: null }),
    ]);
  });

  it('an unreadable evidence-file fails before anything is sent', async () => {
    const commit = sha('action-evidence-missing-file');
    const run = await runAction(
      gateInputs(operator.key, {
        repository: SBOM,
        'commit-sha': commit,
        'evidence-name': 'sbom',
        'evidence-file': '/nonexistent/sbom.json',
      }),
    );
    expect(run.code).toBe(1);
    expect(run.log).toContain('::error::evidence-file /nonexistent/sbom.json cannot be read: ENOENT');
    expect((await decide(t, SBOM, commit)).provenance.evidence).toEqual([]);
  });
});

it('reports every invalid input at once', async () => {
  const run = await runAction({
    'api-url': 'ftp://x',
    'commit-sha': 'abc',
    'wait-timeout': '-1',
    'evidence-status': 'maybe',
    'fail-on-no-ship': 'yes',
    'evidence-name': 'tests',
    'evidence-uri': 'javascript:alert(1)',
  });
  expect(run.code).toBe(1);
  for (const problem of [
    'api-url must be an http(s) URL',
    'evidence-uri must be an http(s) URL (got "javascript:alert(1)")',
    'commit-sha must be a full 40-character SHA',
    'wait-timeout must be',
    'evidence-status must be',
    'fail-on-no-ship must be true or false',
  ])
    expect(run.log).toContain(problem);
});
