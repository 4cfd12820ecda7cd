import { generateKeyPairSync } from 'node:crypto';
import { createSigner } from '../../core/certificates/create-signer.js';
import { printableName, printableText, show } from '../../core/certificates/printable-text.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { signPackage } from '../../core/certificates/sign-package.js';
import { verifyCommand } from '../../server/verify-command.js';
import { signedPackage } from './support/package-fixture.js';
import { fileWriter } from './support/verify-cli.js';

// A security probe: `shipgate verify` printed the names a package chose as they were. A member
// named with a carriage return and ANSI escapes erased the FAIL line in a terminal and printed
// "OK: the package verifies." (the exit code was still 1), and one record mismatch printed a
// 1,000,000-item violations list whole, a 23 MB line.

const { pkg, publicKeys } = signedPackage();
const write = fileWriter('shipgate-verify-names-');
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const FORGED_OK = '\r\x1b[2K\x1b[1A\x1b[2K\rmanifest signed by key <kid>\n5 certificate(s) checked\nOK: the package verifies.\x1b[8m';

/** The command's lines as it printed them, each call one line. */
async function verifyLines(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await verifyCommand(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  return { code, lines };
}

describe('shipgate verify prints what a package names escaped and cut', () => {
  it("escapes a member named to erase the FAIL line in a terminal, a certificate's id and a path by the package's keys", async () => {
    const hostile = JSON.parse(JSON.stringify(pkg));
    hostile[FORGED_OK] = 1;
    hostile['evidence\x1b]0;title\x07'] = { ['\u202enested']: { certificates: [{ id: 'c\r\x1b[2Kcert\u0085', kind: 'tool_call' }] } };
    const { code, lines } = await verifyLines([write('ansi.json', hostile), '--keys', write('keys.json', { keys: publicKeys })]);
    expect(code).toBe(1);
    for (const line of lines) expect(line).not.toMatch(UNPRINTABLE);
    expect(lines).toContain(
      "FAIL member '\\u000d\\u001b[2K\\u001b[1A\\u001b[2K\\u000dmanifest signed by key <kid>\\u000a5 certificate(s) checked" +
        "\\u000aOK: the package verifies.\\u001b[8m': added: not listed in the manifest",
    );
    expect(lines).toContain(
      'FAIL certificate c\\u000d\\u001b[2Kcert\\u0085 (in evidence\\u001b]0;title\\u0007.\\u202enested.certificates): ' +
        'malformed_envelope - envelope does not verify (malformed_envelope)',
    );
    expect(lines.at(-1)).toMatch(/^FAILED: \d+ problem\(s\) found\.$/);
    expect(lines).not.toContain('OK: the package verifies.');
  });

  it('cuts a long member name, and a record value of 100,000 items, marking the cut with its size', async () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const { manifest: _manifest, ...body } = JSON.parse(JSON.stringify(pkg));
    // The record edited after its certificates were issued, then exported: the manifest signs the edit.
    body.execution.violations = Array.from({ length: 100_000 }, (_, i) => `output_rule:secrets:aws_key:tool_call:${i}`);
    const resigned = signPackage(body, createSigner(key));
    const longName = 'm'.repeat(100_000);
    const hostile = { ...resigned, [longName]: 'x' };
    const keys = write('resigned-keys.json', { keys: [...publicKeys, publicJwkOf(key)] });
    const { code, lines } = await verifyLines([write('long.json', hostile), '--keys', keys]);
    expect(code).toBe(1);
    expect(lines).toContain(`FAIL member '${'m'.repeat(200)}… (100000 characters)': added: not listed in the manifest`);
    const mismatch = lines.find((l) => l.startsWith("FAIL member 'execution': record_mismatch: violations"));
    expect(mismatch).toMatch(
      /^FAIL member 'execution': record_mismatch: violations \["output_rule:secrets:aws_key:tool_call:0",.*… \(100000 items\) but its execution certificate says \[\]$/,
    );
    expect(mismatch!.length).toBeLessThan(500);
    for (const line of lines) expect(line.length).toBeLessThan(1_500);
  });
});

describe('the printable forms', () => {
  it('escapes control, format and separator characters, lone surrogates, and in a name its quote and backslash', () => {
    expect(printableName("a'b\\c\x1b\x9b\u2028\u200f\ud800")).toBe("a\\'b\\\\c\\u001b\\u009b\\u2028\\u200f\\ud800");
    expect(printableName('ünïcode — 名前 😀')).toBe('ünïcode — 名前 😀');
    expect(printableText('say "\\u001b" \x1b[31m')).toBe('say "\\u001b" \\u001b[31m');
    expect(printableText('x'.repeat(2_000))).toBe(`${'x'.repeat(1_000)}… (2000 characters)`);
  });

  it('writes a value as JSON up to the bound only, with its size after the cut', () => {
    expect(show(undefined)).toBe('nothing');
    expect(show({ a: [1, 'b', null], c: undefined })).toBe('{"a":[1,"b",null]}');
    expect(show('y'.repeat(1_000_000))).toBe(`"${'y'.repeat(199)}… (1000000 characters)`);
    expect(show(Array.from({ length: 1_000_000 }, () => 'v'))).toMatch(/^\["v","v",.*… \(1000000 items\)$/);
    expect(show({ [`k${'z'.repeat(500)}`]: 1, b: 2 })).toMatch(/^\{"kz+… \(2 fields\)$/);
  });
});
