import { jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { waitFor } from '../executions/support/wait-for.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { runShipgate } from '../support/run-shipgate.js';
import { reviewedRelease, stageModel } from './support/stage-model.js';

jest.setTimeout(120_000);

let llm: FakeLlm;
let t: TestApp;
let operator: TestUser;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the package is walked and edited freely
let pkg: any;
let headers: Record<string, string>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-workflow-export-'));

beforeAll(async () => {
  llm = await startFakeLlm();
  llm.otherwise(stageModel());
  t = await createTestApp(llm.env(), { worker: true });
  operator = await t.user('OPERATOR');
  const created = await t.request.post('/api/v1/workflows').set(operator.auth).send(reviewedRelease());
  await waitFor(
    async () => (await t.request.get(`/api/v1/workflows/${created.body.id}`).set(operator.auth)).body.status,
    (s) => s === 'completed',
    60_000,
  );
  const res = await t.request.get(`/api/v1/workflows/${created.body.id}/export`).set(operator.auth);
  expect(res.status).toBe(200);
  pkg = res.body;
  headers = res.headers;
});
afterAll(async () => {
  await t.close();
  await llm.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const copy = () => JSON.parse(JSON.stringify(pkg));
function write(name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}
async function shipgateVerify(file: string, ...options: string[]) {
  const proc = runShipgate(['verify', file, ...options], {});
  const { code } = await proc.exited;
  return { code, output: proc.output() };
}

/** Every string and number in the package, by path. */
function leaves(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...at, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, k]));
  return (typeof value === 'string' && value.length > 0) || typeof value === 'number' ? [at] : [];
}
/** The package with ONE character changed at `at` (a number changes by one). */
function changedAt(at: (string | number)[]) {
  const edited = copy();
  const parent = at.slice(0, -1).reduce((node, key) => node[key], edited);
  const key = at[at.length - 1];
  const value = parent[key];
  if (typeof value === 'number') parent[key] = value + 1;
  else {
    const i = Math.floor(value.length / 2);
    parent[key] = value.slice(0, i) + (value[i] === 'a' ? 'b' : 'a') + value.slice(i + 1);
  }
  return edited;
}

describe('GET /workflows/{id}/export', () => {
  it('is an attachment holding the workflow, every stage execution with re-verified certificates, the lineage and keys', () => {
    expect(headers['content-disposition']).toBe(`attachment; filename="shipgate-workflow-${pkg.workflow.id}.json"`);
    expect(pkg.stages.map((s: { stage_id: string }) => s.stage_id)).toEqual(['review', 'release', 'announce']);
    const [review, release] = pkg.stages;
    expect(release.execution.tool_calls.map((c: { tool: string }) => c.tool)).toEqual(['read_upstream', 'record_release_notes']);
    expect(
      pkg.stages.flatMap((s: { execution: { certificates: { verified: boolean }[] } }) => s.execution.certificates.map((c) => c.verified)),
    ).not.toContain(false);
    expect(release.attestation).toMatchObject({ compliant: true, proofs_missing: [] });
    const reviewDigest = review.execution.certificates.find((c: { kind: string }) => c.kind === 'execution').digest;
    expect(pkg.lineage).toEqual([
      { stage_id: 'review', execution_id: review.execution.id, upstream: [] },
      {
        stage_id: 'release',
        execution_id: release.execution.id,
        upstream: [{ stage_id: 'review', execution_id: review.execution.id, certificate_digest: reviewDigest }],
      },
      { stage_id: 'announce', execution_id: pkg.stages[2].execution.id, upstream: [] },
    ]);
    expect(pkg.public_keys.length).toBeGreaterThan(0);
    expect(pkg.manifest.members.map((m: { name: string }) => m.name)).toEqual([
      'generated_at',
      'lineage',
      'package_id',
      'public_keys',
      'stages',
      'workflow',
    ]);
  });

  it('`shipgate verify` accepts the fresh export under the published keys; without them it exits 3, origin unproven', async () => {
    const keys = await t.request.get('/api/v1/compliance/keys');
    const { code, output } = await shipgateVerify(write('fresh.json', pkg), '--keys', write('keys.json', keys.body));
    expect(output).toMatch(/OK: the package verifies\./);
    expect(code).toBe(0);
    const unanchored = await shipgateVerify(write('fresh.json', pkg));
    expect(unanchored.code).toBe(3);
    expect(unanchored.output).toMatch(/ORIGIN UNPROVEN/);
    expect(verifyPackage(pkg, pkg.public_keys)).toMatchObject({ ok: true, certificatesChecked: expect.any(Number) });
  });

  it('rejects a single-character change anywhere: every string and number of every member', () => {
    const paths = leaves(pkg);
    expect(paths.length).toBeGreaterThan(200);
    const accepted = paths.filter((at) => verifyPackage(changedAt(at), pkg.public_keys).ok).map((at) => at.join('.'));
    expect(accepted).toEqual([]);
  });

  it('`shipgate verify` exits 1 naming what fails: altered members, a removed certificate, a forged lineage', async () => {
    const output = changedAt(['stages', 1, 'execution', 'output']);
    const result = await shipgateVerify(write('output.json', output));
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/FAIL member 'stages': altered/);

    const name = changedAt(['workflow', 'name']);
    expect((await shipgateVerify(write('name.json', name))).output).toMatch(/FAIL member 'workflow': altered/);

    const removed = copy();
    removed.stages[0].execution.certificates.splice(0, 1);
    const withoutCertificate = await shipgateVerify(write('removed.json', removed));
    expect(withoutCertificate.code).toBe(1);
    expect(withoutCertificate.output).toMatch(/FAIL member 'stages': altered/);
    expect(withoutCertificate.output).toMatch(/broken_chain/);

    // Even re-signed by the service's own key, a lineage that does not match the certificates is refused.
    const { manifest: _manifest, ...body } = copy();
    body.lineage[1].upstream = [];
    const { signPackage } = await import('../../core/certificates/sign-package.js');
    const forged = signPackage(body, t.deps.signer);
    const lineage = await shipgateVerify(write('lineage.json', forged));
    expect(lineage.code).toBe(1);
    expect(lineage.output).toMatch(/FAIL member 'lineage': stage release: its execution certificate's signed upstream differs/);
  });

  it('`shipgate verify` refuses a release run after a review that refused it, even beside an approving one (signed as issued)', async () => {
    const { manifest: _manifest, ...body } = copy();
    const review = body.stages[0].execution.artifacts.find((a: { kind: string }) => a.kind === 'review');
    body.stages[0].execution.artifacts.push({ ...review, approved_for_release: false, content: 'RETRACTED: a critical bug.' });
    const { signPackage } = await import('../../core/certificates/sign-package.js');
    const retracted = await shipgateVerify(write('retracted.json', signPackage(body, t.deps.signer)));
    expect(retracted.code).toBe(1);
    expect(retracted.output).toMatch(/stage release: released without review's reviews approving \(each must; none may refuse\)/);
  });
});
