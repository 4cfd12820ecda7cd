import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { verifyCommand } from '../../server/verify-command.js';
import { signedPackage } from './package-fixture.js';

const { pkg, publicKeys } = signedPackage();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-verify-'));

function write(name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await verifyCommand(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('shipgate verify', () => {
  it('accepts an intact package with the keys it carries, saying where the keys came from', async () => {
    const result = await run([write('ok.json', pkg)]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/with the 2 public key\(s\) the package itself carries \(public_keys\)/);
    expect(result.out).toMatch(/4 certificate\(s\) checked/);
    expect(result.out).toMatch(/OK: the package verifies\.$/);
  });

  it('uses a JWK set file given with --keys, and fails when the package was signed by another key', async () => {
    const keys = write('keys.json', { keys: publicKeys });
    expect((await run([write('ok2.json', pkg), '--keys', keys])).code).toBe(0);
    const strangers = write('strangers.json', { keys: [publicKeys[0]] }); // without the key that signed the certificates
    const result = await run(['--keys', strangers, write('ok3.json', pkg)]);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/from .*strangers\.json/);
    expect(result.out).toMatch(/FAIL certificate [0-9a-f-]{36} \(in certificates\): unknown_key/);
  });

  it('exits 1 naming an altered member and a removed certificate', async () => {
    const tampered = JSON.parse(JSON.stringify(pkg));
    tampered.execution.verdict = 'non_compliant';
    tampered.certificates.splice(0, 1);
    const result = await run([write('tampered.json', tampered)]);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/FAIL member 'execution': altered/);
    expect(result.out).toMatch(/FAIL member 'certificates': altered/);
    expect(result.out).toMatch(/FAIL certificate .* broken_chain - prev of tool call 2 does not link to the start of the chain/);
    expect(result.out).toMatch(/FAILED: 3 problem\(s\) found\.$/);
  });

  it('exits 2 for usage errors and unreadable files', async () => {
    expect(await run([])).toMatchObject({ code: 2, err: expect.stringMatching(/^Usage: shipgate verify <export\.json>/) });
    expect(await run([path.join(dir, 'missing.json')])).toMatchObject({ code: 2, err: expect.stringMatching(/cannot read package/) });
    expect(await run([write('bad.json', '{nope')])).toMatchObject({ code: 2, err: expect.stringMatching(/is not JSON/) });
    const keyless = { ...pkg, public_keys: undefined };
    expect(await run([write('keyless.json', keyless)])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/no public_keys; pass --keys/),
    });
  });

  it('runs as the real CLI entry point and exits non-zero on a tampered package', async () => {
    const tampered = JSON.parse(JSON.stringify(pkg));
    tampered.attestation.compliant = false;
    const file = write('cli-tampered.json', tampered);
    const failed = await promisify(execFile)(process.execPath, ['bin/shipgate.js', 'verify', file], {
      env: { PATH: process.env.PATH },
    }).catch((e: { code: number; stdout: string }) => e);
    expect(failed).toMatchObject({ code: 1, stdout: expect.stringMatching(/FAIL member 'attestation': altered/) });
    const ok = await promisify(execFile)(process.execPath, ['bin/shipgate.js', 'verify', write('cli-ok.json', pkg)], {
      env: { PATH: process.env.PATH },
    });
    expect(ok.stdout).toMatch(/OK: the package verifies\./);
  }, 90_000); // two child processes compiling TypeScript through tsx; slow on a busy 2-core machine
});
