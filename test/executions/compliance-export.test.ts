import { verifyPackage } from '../../core/certificates/verify-package.js';
import { startFakeLlm, type FakeLlm, type LlmRequest } from '../fakes/fake-llm-server.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { taskOf, toolAnswers, writesReports } from './support/agent-replies.js';
import { waitFor } from './support/wait-for.js';

let llm: FakeLlm;
let t: TestApp;
let owner: TestUser;
let completedId: string;

/** Under hipaa the model tries the network once (denied, blocking), then answers. */
function model(request: LlmRequest) {
  if (!taskOf(request).startsWith('hipaa')) return writesReports(2)(request);
  return toolAnswers(request) > 0
    ? { text: 'No network, no answer.' }
    : { toolCalls: [{ name: 'http_get', arguments: '{"url":"https://example.com"}' }] };
}

async function run(user: TestUser, body: Record<string, unknown>): Promise<string> {
  const res = await t.request.post('/api/v1/tasks').set(user.auth).send(body);
  expect(res.status).toBe(201);
  await waitFor(
    async () => (await t.request.get(`/api/v1/executions/${res.body.id}`).set(user.auth)).body.status,
    (s) => s === 'completed' || s === 'failed',
  );
  return res.body.id;
}

const exportOf = (user: TestUser, id: string) => t.request.get(`/api/v1/compliance/${id}/export`).set(user.auth);

beforeAll(async () => {
  llm = await startFakeLlm();
  llm.otherwise(model);
  t = await createTestApp(llm.env(), { worker: true });
  owner = await t.user('OPERATOR');
  completedId = await run(owner, { task: 'Review the changelog.' });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe('GET /compliance/{execution_id}/export', () => {
  it('is a signed attachment whose certificates are re-verified and whose attestation is complete', async () => {
    const res = await exportOf(owner, completedId);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="shipgate-execution-${completedId}.json"`);
    const pkg = res.body;
    expect(pkg).toMatchObject({
      package_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      compliance_regime: 'default',
      execution: { id: completedId, status: 'completed', verdict: 'compliant', output: 'Reports written.' },
      policy: { name: 'default', version: 1, retention_days: 365, digest: expect.any(String) },
      attestation: {
        regime: 'default',
        retention_days: 365,
        proofs_required: ['action_safe:tool_call:1', 'action_safe:tool_call:2', 'final_output_safe:execution'],
        proofs_missing: [],
        certificate_count: 3,
        compliant: true,
      },
    });
    expect(Date.parse(pkg.generated_at)).not.toBeNaN();
    expect(pkg.attestation.proofs_satisfied).toEqual(pkg.attestation.proofs_required);
    expect(pkg.attestation.verified_properties.length).toBeGreaterThan(0);
    expect(pkg.tool_calls.map((c: { seq: number }) => c.seq)).toEqual([1, 2]);
    expect(pkg.certificates.map((c: { kind: string; verified: boolean; reason: unknown }) => [c.kind, c.verified, c.reason])).toEqual([
      ['tool_call', true, null],
      ['tool_call', true, null],
      ['execution', true, null],
    ]);
    expect(pkg.public_keys).toEqual((await t.request.get('/api/v1/compliance/keys')).body.keys);
    expect(pkg.manifest.members.map((m: { name: string }) => m.name)).toEqual([
      'artifacts',
      'attestation',
      'certificates',
      'compliance_regime',
      'execution',
      'generated_at',
      'package_id',
      'policy',
      'public_keys',
      'tool_calls',
    ]);
    expect(verifyPackage(pkg, pkg.public_keys)).toMatchObject({ ok: true, failures: [], certificatesChecked: 3 });
  });

  it('detects a changed byte anywhere: a member, a certificate, the manifest', async () => {
    const pkg = (await exportOf(owner, completedId)).body;
    const tamper = (change: (copy: typeof pkg) => void) => {
      const copy = structuredClone(pkg);
      change(copy);
      return verifyPackage(copy, pkg.public_keys);
    };
    const output = tamper((p) => {
      p.execution.output = 'Reports writteN.';
    });
    expect(output.ok).toBe(false);
    expect(output.failures).toContainEqual({ member: 'execution', reason: expect.stringContaining('altered') });
    const toolOutput = tamper((p) => {
      p.tool_calls[0].output = `${p.tool_calls[0].output}!`;
    });
    expect(toolOutput.failures).toContainEqual({ member: 'tool_calls', reason: expect.stringContaining('altered') });
    const signature = tamper((p) => {
      const sig: string = p.certificates[1].envelope.signatures[0].sig;
      p.certificates[1].envelope.signatures[0].sig = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    });
    expect(signature.failures).toContainEqual(expect.objectContaining({ certificate: pkg.certificates[1].id }));
    const manifest = tamper((p) => {
      p.manifest.members[0].sha256 = '0'.repeat(64);
    });
    expect(manifest.ok).toBe(false);
    const removed = tamper((p) => {
      delete p.attestation;
    });
    expect(removed.failures).toContainEqual({ member: 'attestation', reason: expect.stringContaining('removed') });
  });

  it('attests a non-compliant run as such under its regime', async () => {
    const id = await run(owner, { task: 'hipaa: fetch the vendor page', compliance_policy: 'hipaa' });
    const pkg = (await exportOf(owner, id)).body;
    expect(pkg.execution).toMatchObject({ verdict: 'non_compliant', violations: [expect.stringContaining('denied_call:1')] });
    expect(pkg.tool_calls).toEqual([expect.objectContaining({ seq: 1, tool: 'http_get', verdict: 'denied' })]);
    expect(pkg.attestation).toMatchObject({
      regime: 'hipaa',
      retention_days: 2190,
      proofs_required: ['final_output_safe:execution'],
      proofs_missing: [],
      compliant: false,
    });
    // Its execution certificate signs those violations (nothing left unchecked to note), so erasing them is caught.
    expect(verifyPackage(pkg, pkg.public_keys)).toMatchObject({ ok: true, failures: [], notes: [] });
  });

  it('is for the owner, ADMIN and AUDITOR; anyone else gets 404', async () => {
    expect((await exportOf(t.admin, completedId)).status).toBe(200);
    expect((await exportOf(await t.user('AUDITOR'), completedId)).status).toBe(200);
    const stranger = await exportOf(await t.user('OPERATOR'), completedId);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ detail: 'Execution not found.' });
    expect((await exportOf(owner, 'not-a-uuid')).status).toBe(422);
  });
});
