import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import { canonicalDigest } from '../../core/canonical-json.js';
import { createSigner } from '../../core/certificates/create-signer.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { signPackage } from '../../core/certificates/sign-package.js';
import { verifyPackage, type PackageFailure } from '../../core/certificates/verify-package.js';
import { signedPackage } from './support/package-fixture.js';
import { fileWriter, runVerify } from './support/verify-cli.js';

// Black-box probe: an execution record edited in the database after its certificates were issued,
// then exported (so the manifest signs the edit), verified OK. Each hostile package is a real
// export edited as the database would be, then signed again as the exporter would sign it.
const { pkg, publicKeys, run } = signedPackage();
const violations = ['denied_call:3:capability_not_granted', 'budget_overrun:42>40'];
const nonCompliant = signedPackage({ verdict: 'non_compliant', violations }).pkg;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Pkg = Record<string, any>;
const v1Package: Pkg = JSON.parse(fs.readFileSync(new URL('./fixtures/v1-workflow-package.json', import.meta.url), 'utf8'));
// The exporter's key: it signs the manifest, and a certificate re-issued as older code issued it.
const key = generateKeyPairSync('ed25519').privateKey;
const signer = createSigner(key);

/** The package exported again after `edit`: the manifest signs the edited record. */
function reexported(source: Pkg, edit: (body: Pkg) => void) {
  const { manifest: _manifest, ...body } = JSON.parse(JSON.stringify(source));
  edit(body);
  return signPackage(body, signer);
}
const keysOf = (source: Pkg) => [...source.public_keys, publicJwkOf(key)];
const exported = (source: Pkg, edit: (body: Pkg) => void) => verifyPackage(reexported(source, edit), keysOf(source));

/** The package's execution certificate as shipgate issued it before it signed violations: the same predicate without them. */
function issuedBeforeViolationsWereSigned(body: Pkg) {
  const cert = body.certificates.at(-1);
  const statement = JSON.parse(Buffer.from(cert.envelope.payload, 'base64').toString('utf8'));
  delete statement.predicate.violations;
  cert.envelope = signer.sign(statement);
  cert.digest = canonicalDigest(cert.envelope);
}

const mismatches = (failures: PackageFailure[]) =>
  failures.map((f) => ('member' in f ? f.reason.replace(/^record_mismatch: /, '') : f.reason));

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
    [
      'violations',
      (b: Pkg) => (b.execution.violations = ['denied_call:3:capability_not_granted']),
      'violations ["denied_call:3:capability_not_granted"] but its execution certificate says []',
    ],
  ])('fails an edited %s', (_what, edit, problem) => {
    const failures = exported(pkg, edit as (b: Pkg) => void).failures;
    expect(failures).toContainEqual({ member: 'execution', reason: expect.stringMatching(/^record_mismatch: /) });
    expect(mismatches(failures)).toContainEqual(problem);
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

describe("an execution record's violations are held against its execution certificate", () => {
  const signed = JSON.stringify(violations);

  it('verifies a non-compliant export as made, and as signed again unedited', () => {
    expect(verifyPackage(JSON.parse(JSON.stringify(nonCompliant)), nonCompliant.public_keys).failures).toEqual([]);
    expect(exported(nonCompliant, () => {}).failures).toEqual([]);
  });

  it.each([
    ['erased', (b: Pkg) => (b.execution.violations = []), `violations [] but its execution certificate says ${signed}`],
    [
      'one removed',
      (b: Pkg) => b.execution.violations.splice(0, 1),
      `violations ["budget_overrun:42>40"] but its execution certificate says ${signed}`,
    ],
    [
      'reworded',
      (b: Pkg) => (b.execution.violations[0] = 'denied_call:3:awaiting_approval'),
      `violations ["denied_call:3:awaiting_approval","budget_overrun:42>40"] but its execution certificate says ${signed}`,
    ],
    [
      'reordered',
      (b: Pkg) => b.execution.violations.reverse(),
      `violations ["budget_overrun:42>40","denied_call:3:capability_not_granted"] but its execution certificate says ${signed}`,
    ],
    [
      'replaced by another type',
      (b: Pkg) => (b.execution.violations = null),
      `violations null but its execution certificate says ${signed}`,
    ],
  ])('fails violations %s after signing', (_what, edit, problem) => {
    expect(exported(nonCompliant, edit as (b: Pkg) => void).failures).toEqual([
      { member: 'execution', reason: `record_mismatch: ${problem}` },
    ]);
  });

  it('fails a record made compliant after signing on its verdict and its violations alike', () => {
    const result = exported(nonCompliant, (b) => Object.assign(b.execution, { verdict: 'compliant', violations: [] }));
    expect(mismatches(result.failures)).toEqual([
      'verdict "compliant" but its execution certificate says "non_compliant"',
      `violations [] but its execution certificate says ${signed}`,
    ]);
  });

  it('still verifies an execution certificate issued before violations were signed, and says they are not held against it', async () => {
    const old = reexported(nonCompliant, issuedBeforeViolationsWereSigned);
    const note =
      "member 'execution': its execution certificate was issued before shipgate signed violations, so the record's violations are held against the manifest only";
    expect(verifyPackage(old, keysOf(nonCompliant))).toMatchObject({ ok: true, failures: [], notes: [note] });
    expect(exported(nonCompliant, () => {}).notes).toEqual([]);
    const write = fileWriter('shipgate-violations-');
    const cli = await runVerify([write('old.json', old), '--keys', write('keys.json', { keys: keysOf(nonCompliant) })]);
    expect(cli).toMatchObject({ code: 0, out: expect.stringContaining(`NOTE ${note}`) });
    expect(cli.out).toMatch(/OK: the package verifies\.$/);
  });

  it('fails violations erased from a non-compliant record under a certificate signing only its verdict, and added to a compliant one', () => {
    const erased = exported(nonCompliant, (b) => {
      issuedBeforeViolationsWereSigned(b);
      b.execution.violations = [];
    });
    expect(mismatches(erased.failures)).toEqual([
      'verdict "non_compliant" with 0 violations: a verdict is non_compliant exactly when it has some',
    ]);
    const added = exported(pkg, (b) => {
      issuedBeforeViolationsWereSigned(b);
      b.execution.violations = ['denied_call:1:capability_not_granted'];
    });
    expect(mismatches(added.failures)).toEqual([
      'verdict "compliant" with 1 violation: a verdict is non_compliant exactly when it has some',
    ]);
  });
});
