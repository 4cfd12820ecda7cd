import { generateKeyPairSync } from 'node:crypto';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import { signedPackage } from './support/package-fixture.js';
import { specVerify } from './support/independent-dsse.js';

const { pkg, publicKeys, run } = signedPackage();
const copy = (): Record<string, any> => JSON.parse(JSON.stringify(pkg)); // eslint-disable-line @typescript-eslint/no-explicit-any

describe('signed audit packages', () => {
  it('list every member with its digest in a manifest that an independent DSSE verifier accepts', () => {
    expect(pkg.manifest.members.map((m) => m.name)).toEqual([
      'attestation',
      'certificates',
      'compliance_regime',
      'execution',
      'generated_at',
      'package_id',
      'policy',
      'public_keys',
      'tool_calls',
    ]);
    const statement = specVerify(pkg.manifest.envelope, publicKeys) as { subject: { name: string; digest: { sha256: string } }[] };
    expect(statement.subject).toEqual(pkg.manifest.members.map((m) => ({ name: m.name, digest: { sha256: m.sha256 } })));
  });

  it('verify after a JSON round trip', () => {
    expect(verifyPackage(copy(), publicKeys)).toEqual({
      ok: true,
      failures: [],
      manifestKeyid: publicKeys[0].kid,
      certificatesChecked: 4,
      notes: [],
    });
  });

  it('detect an altered member', () => {
    const altered = copy();
    altered.attestation.compliant = false;
    expect(verifyPackage(altered, publicKeys).failures).toEqual([
      { member: 'attestation', reason: expect.stringMatching(/^altered: sha256 [0-9a-f]{64} but the manifest says [0-9a-f]{64}$/) },
    ]);
  });

  it('detect a removed or an added member', () => {
    const removed = copy();
    delete removed.policy;
    expect(verifyPackage(removed, publicKeys).failures).toEqual([
      { member: 'policy', reason: 'removed: listed in the manifest but missing from the package' },
    ]);
    const added = copy();
    added.note = 'trust me';
    expect(verifyPackage(added, publicKeys).failures).toEqual([{ member: 'note', reason: 'added: not listed in the manifest' }]);
  });

  it('detect a removed certificate both as an altered member and as a broken chain', () => {
    const removed = copy();
    removed.certificates.splice(1, 1);
    expect(verifyPackage(removed, publicKeys).failures).toEqual([
      { member: 'certificates', reason: expect.stringMatching(/^altered/) },
      {
        certificate: run.certificates[2].id,
        path: 'certificates',
        reason: 'broken_chain',
        detail: 'prev of tool call 4 does not link to tool call 1',
      },
      { member: 'execution', reason: 'record_mismatch: allowed tool call 2 has no certificate of its own' },
    ]);
  });

  it('detect an edited tool call against the execution certificate', () => {
    const edited = copy();
    edited.tool_calls[2].verdict = 'allowed';
    const failures = verifyPackage(edited, publicKeys).failures;
    expect(failures).toContainEqual({ member: 'tool_calls', reason: expect.stringMatching(/^altered/) });
    expect(failures).toContainEqual({
      certificate: run.certificates[3].id,
      path: 'certificates',
      reason: 'tool_calls_mismatch',
      detail: expect.any(String),
    });
  });

  it('detect a manifest re-signed with another key, or edited in its unsigned list', () => {
    const stranger = [publicJwkOf(generateKeyPairSync('ed25519').privateKey)];
    const result = verifyPackage(copy(), stranger);
    expect(result.ok).toBe(false);
    expect(result.failures[0]).toEqual({ member: 'manifest', reason: 'signature does not verify (unknown_key)' });
    expect(result.failures.slice(1).every((f) => 'certificate' in f && f.reason === 'unknown_key')).toBe(true);
    const listed = copy();
    listed.manifest.members[0].sha256 = '00'.repeat(32);
    expect(verifyPackage(listed, publicKeys).failures).toEqual([
      { member: 'manifest', reason: 'members list differs from the signed manifest' },
    ]);
    const none = copy();
    delete none.manifest;
    expect(verifyPackage(none, publicKeys).failures).toEqual([
      { member: 'manifest', reason: 'missing: the package has no signed manifest' },
    ]);
  });

  it('detect any altered character of the exported file that still parses', () => {
    const text = JSON.stringify(pkg);
    let tried = 0;
    for (let i = 0; i < text.length; i += 13) {
      const c = text[i];
      if (!/[A-Za-z0-9]/.test(c)) continue;
      const replacement = /[0-8]/.test(c)
        ? String(Number(c) + 1)
        : c === '9'
          ? '0'
          : c === 'z' || c === 'Z'
            ? 'a'
            : String.fromCharCode(c.charCodeAt(0) + 1);
      let altered: Record<string, unknown>;
      try {
        altered = JSON.parse(text.slice(0, i) + replacement + text.slice(i + 1));
      } catch {
        continue;
      }
      tried++;
      const result = verifyPackage(altered, publicKeys);
      if (result.ok) throw new Error(`undetected alteration at offset ${i}: ${text.slice(i - 30, i + 30)}`);
    }
    expect(tried).toBeGreaterThan(300);
  });
});
