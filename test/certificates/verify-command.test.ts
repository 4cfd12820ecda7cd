import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createSigner } from '../../core/certificates/create-signer.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { signPackage } from '../../core/certificates/sign-package.js';
import { signedPackage } from './support/package-fixture.js';
import { fileWriter, runVerify } from './support/verify-cli.js';

const { pkg, publicKeys } = signedPackage();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-verify-'));

const write = fileWriter('shipgate-verify-');
const run = runVerify;

describe('shipgate verify', () => {
  it('exits 3 for an intact package checked only with the keys it carries: integrity, but origin unproven', async () => {
    const result = await run([write('ok.json', pkg)]);
    expect(result.code).toBe(3);
    expect(result.out).toMatch(
      /with the 2 public key\(s\) the package itself carries \(public_keys\): this proves the package is intact as signed, not who signed it/,
    );
    expect(result.out).toMatch(/4 certificate\(s\) checked/);
    expect(result.out).toMatch(/ORIGIN UNPROVEN: the package is intact, but only under the keys it carries itself\..*--keys.*--keyid/);
    expect(result.out).not.toMatch(/OK: the package verifies/);
  });

  it('exits 0 with --keys (the JWK set of GET /compliance/keys), 1 when the package was signed by another key', async () => {
    const keys = write('keys.json', { keys: publicKeys });
    const anchored = await run([write('ok2.json', pkg), '--keys', keys]);
    expect(anchored).toMatchObject({ code: 0, out: expect.stringMatching(/OK: the package verifies\.$/) });
    expect(anchored.out).not.toMatch(/ORIGIN UNPROVEN/);
    const strangers = write('strangers.json', { keys: [publicKeys[0]] }); // without the key that signed the certificates
    const result = await run(['--keys', strangers, write('ok3.json', pkg)]);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/from .*strangers\.json/);
    expect(result.out).toMatch(/FAIL certificate [0-9a-f-]{36} \(in certificates\): unknown_key/);
  });

  it('exits 0 with --keyid pinning the signers, 1 with --keyid naming another key', async () => {
    const [manifestKey, certificateKey] = publicKeys.map((k) => k.kid);
    const pinned = await run([write('pinned.json', pkg), '--keyid', manifestKey, '--keyid', certificateKey.toUpperCase()]);
    expect(pinned).toMatchObject({ code: 0, out: expect.stringMatching(/pinned by --keyid[\s\S]*OK: the package verifies\.$/) });
    const other = 'ab'.repeat(32);
    const wrong = await run([write('wrong-pin.json', pkg), '--keyid', other]);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(new RegExp(`no key with keyid ${other} in the package's public_keys`));
    expect(wrong.out).toMatch(/FAIL member 'manifest': signature does not verify \(unknown_key\)/);
    // A re-signed package carrying the forger's key is refused under the genuine signer's pin.
    const forgerKey = generateKeyPairSync('ed25519').privateKey;
    const { manifest: _manifest, ...body } = pkg;
    const forged = signPackage({ ...body, public_keys: [...publicKeys, publicJwkOf(forgerKey)] }, createSigner(forgerKey));
    expect((await run([write('forged.json', forged)])).code).toBe(3);
    expect((await run([write('forged2.json', forged), '--keyid', manifestKey, '--keyid', certificateKey])).code).toBe(1);
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
    // The record is also held against its certificates: the verdict its execution certificate signs, a certificate per allowed call.
    expect(result.out).toMatch(
      /FAIL member 'execution': record_mismatch: verdict "non_compliant" but its execution certificate says "compliant"/,
    );
    expect(result.out).toMatch(/FAIL member 'execution': record_mismatch: allowed tool call 1 has no certificate of its own/);
    expect(result.out).toMatch(/FAILED: 5 problem\(s\) found\.$/);
  });

  it('exits 2 for usage errors and unreadable files; --help names every exit code', async () => {
    expect(await run([])).toMatchObject({ code: 2, err: expect.stringMatching(/^Usage: shipgate verify <export\.json>/) });
    expect(await run([write('usage.json', pkg), '--keyid'])).toMatchObject({ code: 2 });
    expect(await run([write('usage2.json', pkg), '--keyid', 'not-hex'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/is not a keyid/),
    });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(
      /Exit codes: 0 verified under the given keys; 1 verification failed[\s\S]*2 usage error[\s\S]*3 intact, but its origin is unproven/,
    );
    expect(help.out).toMatch(/curl <shipgate url>\/api\/v1\/compliance\/keys > keys\.json/);
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
    const unproven = await promisify(execFile)(process.execPath, ['bin/shipgate.js', 'verify', write('cli-ok.json', pkg)], {
      env: { PATH: process.env.PATH },
    }).catch((e: { code: number; stdout: string }) => e);
    expect(unproven).toMatchObject({ code: 3, stdout: expect.stringMatching(/ORIGIN UNPROVEN/) });
    const keys = write('cli-keys.json', { keys: publicKeys });
    const ok = await promisify(execFile)(process.execPath, ['bin/shipgate.js', 'verify', write('cli-ok2.json', pkg), '--keys', keys], {
      env: { PATH: process.env.PATH },
    });
    expect(ok.stdout).toMatch(/OK: the package verifies\./);
  }, 90_000); // two child processes compiling TypeScript through tsx; slow on a busy 2-core machine
});
