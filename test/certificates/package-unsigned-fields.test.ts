import { verifyPackage } from '../../core/certificates/verify-package.js';
import { signedPackage } from './support/package-fixture.js';

// Black-box probe: fields added inside `manifest` (which no manifest digest covers) verified OK.
// Each hostile package is the fixture's export with one unsigned field added.
const { pkg, publicKeys } = signedPackage();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Pkg = Record<string, any>;
const copy = (): Pkg => JSON.parse(JSON.stringify(pkg));

describe('a package holds nothing unsigned but the documented fields', () => {
  it.each([
    ['manifest.note', (p: Pkg) => (p.manifest.note = 'trust me'), 'unsigned field manifest.note: only members, envelope may sit there'],
    [
      'manifest.execution',
      (p: Pkg) => (p.manifest.execution = { ...p.execution, verdict: 'non_compliant' }),
      'unsigned field manifest.execution: only members, envelope may sit there',
    ],
    [
      'manifest.envelope.note',
      (p: Pkg) => (p.manifest.envelope.note = 'x'),
      'unsigned field manifest.envelope.note: only payloadType, payload, signatures may sit there',
    ],
    [
      'a signature field',
      (p: Pkg) => (p.manifest.envelope.signatures[0].verdict = 'x'),
      'unsigned field manifest.envelope.signatures[0].verdict: only keyid, sig may sit there',
    ],
    ['a member listed twice', (p: Pkg) => p.manifest.members.push(p.manifest.members[0]), 'members list differs from the signed manifest'],
    ['an extra field of a listed member', (p: Pkg) => (p.manifest.members[0].note = 'x'), 'members list differs from the signed manifest'],
  ])('fails %s', (_what, edit, reason) => {
    const hostile = copy();
    edit(hostile);
    expect(verifyPackage(hostile, publicKeys).failures).toEqual([{ member: 'manifest', reason }]);
  });

  it('fails a manifest whose members are not a list, without crashing', () => {
    const hostile = copy();
    hostile.manifest.members = 5;
    expect(verifyPackage(hostile, publicKeys).failures).toEqual([
      { member: 'manifest', reason: 'members list differs from the signed manifest' },
    ]);
  });
});
