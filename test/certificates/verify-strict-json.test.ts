import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createSigner } from '../../core/certificates/create-signer.js';
import { PACKAGE_LIMITS } from '../../core/certificates/package-limits.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { signPackage } from '../../core/certificates/sign-package.js';
import { verifyCommand } from '../../server/verify-command.js';
import { signedPackage } from './support/package-fixture.js';
import { fileWriter, runVerify } from './support/verify-cli.js';

// Black-box probe findings on how `shipgate verify` reads a file: hostile packages are a real
// export (the fixture's) edited as text, the way an attacker edits the downloaded file.
const { pkg, publicKeys } = signedPackage();
const text = JSON.stringify(pkg);

const write = fileWriter('shipgate-strict-');

function verify(file: string, keys: unknown[] = publicKeys) {
  return runVerify([file, '--keys', write(`keys-${path.basename(file)}`, JSON.stringify({ keys }))]);
}

/** The package re-signed after an edit, under a key that is then trusted: what a signer's own mistake would produce. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function resigned(edit: (body: Record<string, any>) => void) {
  const key = generateKeyPairSync('ed25519').privateKey;
  const { manifest: _manifest, ...body } = JSON.parse(text);
  edit(body);
  const keys = [...publicKeys, publicJwkOf(key)];
  return { text: JSON.stringify(signPackage({ ...body, public_keys: keys }, createSigner(key))), keys };
}

function replaced(from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

describe('shipgate verify reads a package strictly', () => {
  it('verifies the untouched export (the edits below are the only difference)', async () => {
    expect(await verify(write('ok.json', text))).toMatchObject({ code: 0 });
  });

  it('fails a package holding a duplicate key anywhere, naming it (a tampered first copy before the genuine one)', async () => {
    const execution = replaced(
      '{"package_id"',
      `{"execution":${JSON.stringify({ ...pkg.execution, verdict: 'non_compliant' })},"package_id"`,
    );
    const first = await verify(write('dup-execution.json', execution));
    expect(first).toMatchObject({ code: 1, out: expect.stringMatching(/^FAIL package: duplicate key "execution" in the object at \$$/m) });
    const verdict = replaced('"verdict":"compliant"', '"verdict":"non_compliant","verdict":"compliant"');
    expect(await verify(write('dup-verdict.json', verdict))).toMatchObject({
      code: 1,
      out: expect.stringMatching(/FAIL package: duplicate key "verdict" in the object at \$\.execution$/m),
    });
    const manifest = replaced('{"package_id"', '{"manifest":{"members":[],"envelope":null},"package_id"');
    expect(await verify(write('dup-manifest.json', manifest))).toMatchObject({
      code: 1,
      out: expect.stringMatching(/duplicate key "manifest"/),
    });
    // Spelled with an escape, still the same key.
    const escaped = replaced('{"package_id"', '{"\\u0065xecution":null,"package_id"');
    expect(await verify(write('dup-escaped.json', escaped))).toMatchObject({
      code: 1,
      out: expect.stringMatching(/duplicate key "execution"/),
    });
    const nested = replaced('"tool_calls":[{"seq":1,', '"tool_calls":[{"seq":7,"seq":1,');
    expect(await verify(write('dup-nested.json', nested))).toMatchObject({
      code: 1,
      out: expect.stringMatching(/duplicate key "seq" in the object at \$\.tool_calls\[0\]/),
    });
  });

  it('refuses a key file holding a duplicate key as a usage error', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const keys = JSON.stringify({ keys: publicKeys }).replace('"x":', '"x":"AAAA","x":');
    const code = await verifyCommand([write('dup-keys-pkg.json', text), '--keys', write('dup-keys.json', keys)], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    expect({ code, err: err.join('\n') }).toEqual({
      code: 2,
      err: expect.stringMatching(/key file .*dup-keys\.json: duplicate key "x" in the object at \$\.keys\[0\]/),
    });
  });

  it('fails a file that is not valid UTF-8 (a 0xFF byte where U+FFFD was signed)', async () => {
    const signed = resigned((body) => (body.execution.task = 'replacement \uFFFD character'));
    expect(await verify(write('fffd.json', signed.text), signed.keys)).toMatchObject({ code: 0 });
    const bytes = Buffer.from(signed.text, 'utf8');
    const at = bytes.indexOf(Buffer.from('\uFFFD', 'utf8'));
    const hostile = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 3)]);
    expect(await verify(write('ff.json', hostile), signed.keys)).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^FAIL package: not valid UTF-8$/m),
    });
  });

  it('fails numbers not written as canonical JSON writes them (1.0e0, 1.000…1, -0)', async () => {
    for (const [from, to] of [
      ['"seq":1,', '"seq":1.0e0,'],
      ['"seq":1,', '"seq":1.0000000000000000000000001,'],
      ['"cost_cents":42', '"cost_cents":42.0'],
    ]) {
      expect(await verify(write('number.json', replaced(from, to)))).toMatchObject({
        code: 1,
        out: expect.stringMatching(/FAIL package: number .* not written as canonical JSON writes it/),
      });
    }
    const zero = resigned((body) => (body.attestation.retention_days = 0));
    expect(await verify(write('zero.json', zero.text), zero.keys)).toMatchObject({ code: 0 });
    expect(await verify(write('minus-zero.json', zero.text.replace('"retention_days":0', '"retention_days":-0')), zero.keys)).toMatchObject(
      {
        code: 1,
        out: expect.stringMatching(
          /FAIL package: number -0 not written as canonical JSON writes it \(0\) at \$\.attestation\.retention_days/,
        ),
      },
    );
  });

  it('fails 1e400 and 100k- or 1M-deep nesting in a member with a message, no stack trace', async () => {
    expect(await verify(write('huge.json', replaced('"cost_cents":42', '"cost_cents":1e400')))).toMatchObject({
      code: 1,
      out: expect.stringMatching(/FAIL package: number 1e400 out of range at \$\.execution\.cost_cents/),
    });
    for (const depth of [100_000, 1_000_000]) {
      const deep = replaced('"compliance_regime":"hipaa"', `"compliance_regime":${'['.repeat(depth)}${']'.repeat(depth)}`);
      expect(await verify(write('deep.json', deep))).toMatchObject({
        code: 1,
        out: expect.stringMatching(
          new RegExp(`FAIL package: nesting deeper than ${PACKAGE_LIMITS.maxDepth} levels at \\$\\.compliance_regime(\\[0\\])+$`, 'm'),
        ),
      });
    }
  });

  it('fails a file over the size bound before reading it, and one with more values than the bound', async () => {
    const big = write('big.json', text);
    fs.truncateSync(big, PACKAGE_LIMITS.maxBytes + 1); // sparse: costs no disk
    const started = Date.now();
    expect(await verify(big)).toMatchObject({
      code: 1,
      out: expect.stringMatching(
        new RegExp(`FAIL package: ${PACKAGE_LIMITS.maxBytes + 1} bytes, over the ${PACKAGE_LIMITS.maxBytes} bytes`),
      ),
    });
    expect(Date.now() - started).toBeLessThan(2000);
    const many = replaced('"compliance_regime":"hipaa"', `"compliance_regime":[${'[],'.repeat(PACKAGE_LIMITS.maxValues)}[]]`);
    expect(await verify(write('many.json', many))).toMatchObject({
      code: 1,
      out: expect.stringMatching(new RegExp(`FAIL package: more than ${PACKAGE_LIMITS.maxValues} JSON values`)),
    });
  });

  it('still says "not JSON" (usage, exit 2) for text that is not JSON at all', async () => {
    for (const bad of ['{nope', text.slice(0, -1), `${text}x`, '\uFEFF' + text, '{"a":01}', '{"a":"\u0001"}'])
      expect(await verify(write('bad.json', bad))).toMatchObject({ code: 2, err: expect.stringMatching(/is not JSON/) });
  });
});
