import { PACKAGE_LIMITS } from '../../core/certificates/package-limits.js';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import { signedPackage } from './support/package-fixture.js';

// Black-box probe: 300,000 bogus signatures claiming the trusted keyid beside one valid one took
// 100 s to check, then verified OK. The hostile packages are the fixture's export, edited.
const { pkg, publicKeys, run } = signedPackage();
const copy = (): Record<string, any> => JSON.parse(JSON.stringify(pkg)); // eslint-disable-line @typescript-eslint/no-explicit-any
const bogus = (keyid: string) => ({ keyid, sig: Buffer.alloc(64, 7).toString('base64') });

describe('envelope signatures', () => {
  it(`fail an envelope with more than ${PACKAGE_LIMITS.maxSignatures} signatures, at once`, () => {
    const hostile = copy();
    const [valid] = hostile.manifest.envelope.signatures;
    hostile.manifest.envelope.signatures = [...Array.from({ length: 300_000 }, () => bogus(valid.keyid)), valid];
    const started = Date.now();
    expect(verifyPackage(hostile, publicKeys).failures).toContainEqual({
      member: 'manifest',
      reason: 'signature does not verify (too_many_signatures)',
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('fail an envelope with a signature claiming a trusted keyid that does not verify, beside a valid one', () => {
    const manifest = copy();
    const [valid] = manifest.manifest.envelope.signatures;
    manifest.manifest.envelope.signatures = [bogus(valid.keyid), valid];
    expect(verifyPackage(manifest, publicKeys).failures[0]).toEqual({
      member: 'manifest',
      reason: 'signature does not verify (bad_signature)',
    });
    const certificate = copy();
    const envelope = certificate.certificates[0].envelope;
    envelope.signatures = [...envelope.signatures, bogus(envelope.signatures[0].keyid)];
    expect(verifyPackage(certificate, publicKeys).failures).toContainEqual(
      expect.objectContaining({ certificate: run.certificates[0].id, reason: 'bad_signature' }),
    );
  });

  it('still ignore a signature by a key that is not trusted', () => {
    const other = copy();
    other.manifest.envelope.signatures.push(bogus('ab'.repeat(32)));
    expect(verifyPackage(other, publicKeys)).toMatchObject({ ok: true, failures: [] });
  });
});
