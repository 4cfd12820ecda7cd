import { generateKeyPairSync } from 'node:crypto';
import { createSigner } from '../../core/certificates/create-signer.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { signPackage } from '../../core/certificates/sign-package.js';
import { signedPackage } from './support/package-fixture.js';
import { fileWriter, runVerify } from './support/verify-cli.js';

// Black-box probe: a key file (or a package's own public_keys) holding an RSA key, a null entry,
// a numeric x or junk crashed with a stack trace; an empty JWK set was a FAIL, not a usage error;
// the key count included unusable entries.
const { pkg, publicKeys } = signedPackage();
const rsa = { ...generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }), kid: 'rsa' };
const junk = [rsa, null, { kty: 'OKP', crv: 'Ed25519', x: 12345 }, 'junk', 5, {}, []];

const write = fileWriter('shipgate-keys-');
const run = runVerify;

describe('shipgate verify with unusable key entries', () => {
  it('ignores each unusable entry of --keys with a note, and counts only usable keys', async () => {
    const result = await run([write('pkg.json', pkg), '--keys', write('keys.json', { keys: [...junk, ...publicKeys] })]);
    expect(result).toMatchObject({ code: 0, out: expect.stringMatching(/OK: the package verifies\.$/) });
    expect(result.out).toMatch(/key file .*keys\.json: key entry \[0\] ignored: not an Ed25519 public JWK \(kty "RSA"\)/);
    for (let i = 1; i < junk.length; i++) expect(result.out).toMatch(new RegExp(`key entry \\[${i}\\] ignored`));
    expect(result.out).toMatch(/Verifying .* with 2 public key\(s\) from/);
  });

  it('is a usage error (exit 2) when no usable key remains, or the set is empty', async () => {
    for (const keys of [junk, []])
      expect(await run([write('pkg2.json', pkg), '--keys', write('junk-keys.json', { keys })])).toMatchObject({
        code: 2,
        err: expect.stringMatching(/key file .*junk-keys\.json holds no usable Ed25519 public key/),
      });
  });

  it("ignores unusable entries of the package's own public_keys the same way", async () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const { manifest: _manifest, ...body } = JSON.parse(JSON.stringify(pkg));
    const carrying = signPackage({ ...body, public_keys: [...junk, ...publicKeys, publicJwkOf(key)] }, createSigner(key));
    const result = await run([write('carrying.json', carrying)]);
    expect(result).toMatchObject({ code: 3, out: expect.stringMatching(/the package's public_keys: key entry \[1\] ignored/) });
    expect(result.out).toMatch(/with the 3 public key\(s\) the package itself carries/);
    const only = signPackage({ ...body, public_keys: junk }, createSigner(key));
    expect(await run([write('only-junk.json', only)])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/the package's public_keys holds no usable Ed25519 public key; pass --keys/),
    });
  });
});
