import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { signedPackage } from './support/package-fixture.js';
import { fileWriter } from './support/verify-cli.js';

// A security probe: a real export whose lists were replaced by 20,000 dummy certificates and as
// many allowed tool calls (1.1 MB) held `shipgate verify` 88 s, 40,000 461 s; each tool call was
// looked up by a scan of every certificate, and every chain read every call again.
// docs/attestations.md, "What the verifier refuses": a check at the file limits takes seconds.
// The verifier runs as the CLI in a child process, killed at the bound: a quadratic check would
// otherwise hold this test's own thread for many minutes before any timeout could fire.

jest.setTimeout(120_000);

/** Far above the second or two these take (tsx compiling the CLI included), far below the minutes they took. */
const BOUND_MS = 20_000;
const N = 50_000;

const { pkg, publicKeys } = signedPackage();
const write = fileWriter('shipgate-verify-size-');
const keys = write('keys.json', { keys: publicKeys });

/** A certificate of kind `execution` whose envelope decodes (unsigned) to a predicate of execution `id`. */
function executionCertificate(id: number) {
  const statement = { predicateType: 'https://shipgate.dev/attestations/final-output-safe/v2', predicate: { execution_id: `e${id}` } };
  return { kind: 'execution', envelope: { payload: Buffer.from(JSON.stringify(statement)).toString('base64') } };
}

/** The CLI's exit code, whether it was killed at the bound, and its last lines (a failure prints one line per problem). */
function verifyCli(file: string): Promise<{ code: number | null; killed: boolean; lines: string[]; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/shipgate.js', 'verify', file, '--keys', keys],
      { env: { PATH: process.env.PATH }, timeout: BOUND_MS, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => {
        const failed = error as (Error & { code?: number; killed?: boolean }) | null;
        const lines = stdout.trimEnd().split('\n').slice(-4);
        resolve({ code: failed ? (failed.code ?? null) : 0, killed: failed?.killed ?? false, lines, ms: performance.now() - started });
      },
    );
  });
}

describe('shipgate verify on a package of many certificates and tool calls', () => {
  it(`fails ${N} dummy certificates and ${N} allowed calls (the probe's package) within the bound`, async () => {
    const hostile = JSON.parse(JSON.stringify(pkg));
    hostile.certificates = Array.from({ length: N }, () => ({ kind: 'tool_call' }));
    hostile.tool_calls = Array.from({ length: N }, (_, i) => ({ seq: i + 1, verdict: 'allowed' }));
    const result = await verifyCli(write('dummies.json', hostile));
    if (process.env.SHOW_TIMINGS) console.log(`${N} dummy certificates: ${result.ms.toFixed(0)} ms`);
    expect(result).toMatchObject({ killed: false, code: 1 });
    expect(result.lines).toEqual([
      `FAIL member 'execution': record_mismatch: allowed tool call ${N} has no certificate of its own`,
      expect.stringMatching(/^manifest signed by key [0-9a-f]{64}$/),
      `${N} certificate(s) checked`,
      expect.stringMatching(/^FAILED: \d+ problem\(s\) found\.$/),
    ]);
  });

  it('fails execution certificates of as many executions, each a chain read against every call, within the bound', async () => {
    const hostile = JSON.parse(JSON.stringify(pkg));
    hostile.certificates = Array.from({ length: N / 5 }, (_, i) => executionCertificate(i));
    hostile.tool_calls = Array.from({ length: N }, (_, i) => ({ seq: i + 1, verdict: 'denied' }));
    const result = await verifyCli(write('chains.json', hostile));
    if (process.env.SHOW_TIMINGS) console.log(`${N / 5} chains of ${N} calls: ${result.ms.toFixed(0)} ms`);
    expect(result).toMatchObject({ killed: false, code: 1 });
    expect(result.lines.slice(2)).toEqual([`${N / 5} certificate(s) checked`, expect.stringMatching(/^FAILED: \d+ problem\(s\) found\.$/)]);
  });
});

describe('shipgate verify on a workflow package of many stages', () => {
  it('fails a lineage of as many entries, each looked up among every stage, within the bound; many groups without overflowing the stack', async () => {
    // 100,000 stages and as many lineage entries (3.4 MB) took 9.8 s, 200,000 some 40 s: each entry searched every stage.
    const stages = Array.from({ length: 4 * N }, (_, i) => ({ stage_id: `s${i}`, execution: null }));
    const lineage = Array.from({ length: 4 * N }, (_, i) => ({ stage_id: `x${i}`, execution_id: 'e', upstream: [] }));
    const result = await verifyCli(write('lineage.json', { ...JSON.parse(JSON.stringify(pkg)), stages, lineage }));
    expect(result).toMatchObject({ killed: false, code: 1 });
    // 500,000 members of `{certificates: []}` each a group: spread into one list, they overflowed the stack.
    const groups = await verifyCli(
      write('groups.json', { ...JSON.parse(JSON.stringify(pkg)), many: Array.from({ length: 10 * N }, () => ({ certificates: [] })) }),
    );
    expect(groups).toMatchObject({ killed: false, code: 1 });
    expect(groups.lines.join('\n')).not.toMatch(/Maximum call stack/);
  });
});
