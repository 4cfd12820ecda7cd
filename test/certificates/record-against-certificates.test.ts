import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import { createSigner } from '../../core/certificates/create-signer.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { signPackage } from '../../core/certificates/sign-package.js';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import { signedPackage } from './support/package-fixture.js';

// Black-box probe: an execution record edited in the database after its certificates were issued,
// then exported (so the manifest signs the edit), verified OK. Each hostile package is a real
// export edited as the database would be, then signed again as the exporter would sign it.
const { pkg, publicKeys, run } = signedPackage();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Pkg = Record<string, any>;
const v1Package: Pkg = JSON.parse(fs.readFileSync(new URL('./fixtures/v1-workflow-package.json', import.meta.url), 'utf8'));

function exported(source: Pkg, edit: (body: Pkg) => void) {
  const key = generateKeyPairSync('ed25519').privateKey;
  const { manifest: _manifest, ...body } = JSON.parse(JSON.stringify(source));
  edit(body);
  return verifyPackage(signPackage(body, createSigner(key)), [...source.public_keys, publicJwkOf(key)]);
}

describe('an execution record is held against its own certificates', () => {
  it('verifies the export as made, and as signed again unedited', () => {
    expect(verifyPackage(JSON.parse(JSON.stringify(pkg)), publicKeys).ok).toBe(true);
    expect(exported(pkg, () => {}).failures).toEqual([]);
    expect(exported(v1Package, () => {}).failures).toEqual([]);
  });

  it.each([
    [
      'verdict',
      (b: Pkg) => (b.execution.verdict = 'non_compliant'),
      'verdict "non_compliant" but its execution certificate says "compliant"',
    ],
    ['output', (b: Pkg) => (b.execution.output = 'another answer'), expect.stringMatching(/^output differs from the output digest/)],
    ['output removed', (b: Pkg) => (b.execution.output = null), expect.stringMatching(/^output differs from the output digest/)],
    ['cost', (b: Pkg) => (b.execution.cost_cents = 1), 'cost_cents 1 but its execution certificate says 42'],
    ['policy', (b: Pkg) => (b.execution.policy.version = 2), 'policy.version 2 but its execution certificate says 1'],
    [
      'upstream',
      (b: Pkg) => (b.execution.upstream_execution_ids = ['x']),
      'upstream_execution_ids ["x"] but its execution certificate says []',
    ],
    [
      'status',
      (b: Pkg) => (b.execution.status = 'running'),
      'status "running" with verdict "compliant", but an execution certificate was issued',
    ],
    [
      'capability',
      (b: Pkg) => (b.tool_calls[0].capability = 'repo:write'),
      'tool call 1: capability "repo:write" but its certificate says "repo:read"',
    ],
  ])('fails an edited %s', (_what, edit, problem) => {
    const failures = exported(pkg, edit as (b: Pkg) => void).failures;
    expect(failures).toContainEqual({ member: 'execution', reason: expect.stringMatching(/^record_mismatch: /) });
    expect(failures.map((f) => ('member' in f ? f.reason.replace(/^record_mismatch: /, '') : undefined))).toContainEqual(problem);
  });

  it('fails a completed execution whose execution certificate and last tool-call certificate were deleted', () => {
    const failures = exported(pkg, (b) => b.certificates.splice(2, 2)).failures;
    expect(failures).toEqual([
      { member: 'execution', reason: 'record_mismatch: a completed execution with a verdict carries no execution certificate' },
      { member: 'execution', reason: 'record_mismatch: allowed tool call 4 has no certificate of its own' },
    ]);
    // The execution certificate alone, too.
    expect(exported(pkg, (b) => b.certificates.pop()).failures).toEqual([
      { member: 'execution', reason: 'record_mismatch: a completed execution with a verdict carries no execution certificate' },
    ]);
    expect(run.certificates).toHaveLength(4);
  });

  it("fails a workflow stage's record edited against its certificates (a v1 package too)", () => {
    const failures = exported(v1Package, (b) => (b.stages[0].execution.verdict = 'non_compliant')).failures;
    expect(failures).toContainEqual({
      member: 'stages[0].execution',
      reason: 'record_mismatch: verdict "non_compliant" but its execution certificate says "compliant"',
    });
  });
});
