import { generateKeyPairSync } from 'node:crypto';
import {
  evidenceEntryName,
  provenanceKeysOf,
  requiredEvidenceEntrySchema,
  requiredEvidenceListSchema,
  type RequiredEvidenceEntry,
} from '../../core/evidence-content/evidence-rules.js';
import { publicKeyOfJwk, type ProvenanceKey } from '../../core/evidence-content/provenance-keys.js';
import { generateTestKey } from './support/evidence-fixtures.js';

const parse = (value: unknown) => requiredEvidenceEntrySchema.parse(value);
const problems = (value: unknown) => {
  const result = requiredEvidenceEntrySchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path, message: i.message }));
};

describe('required_evidence entries', () => {
  it('accepts a plain name and an object with only a name', () => {
    expect(parse(' tests ')).toBe('tests');
    expect(parse({ name: 'tests' })).toEqual({ name: 'tests' });
    expect(evidenceEntryName('tests')).toBe('tests');
    expect(evidenceEntryName({ name: 'sbom', format: 'spdx' })).toBe('sbom');
  });

  it('fills each format’s rule defaults', () => {
    expect(parse({ name: 'tests', format: 'junit', rules: {} })).toEqual({ name: 'tests', format: 'junit', rules: { max_failed: 0 } });
    expect(parse({ name: 'scan', format: 'sarif', rules: {} })).toEqual({
      name: 'scan',
      format: 'sarif',
      rules: { max_level: 'warning', ignore_rules: [] },
    });
    expect(parse({ name: 'sbom', format: 'cyclonedx', rules: {} })).toMatchObject({
      rules: { denied_licenses: [], require_licenses: false },
    });
    expect(parse({ name: 'sbom', format: 'spdx', rules: {} })).toMatchObject({ rules: { denied_licenses: [], require_licenses: false } });
    expect(parse({ name: 'prov', format: 'provenance', rules: {} })).toEqual({
      name: 'prov',
      format: 'provenance',
      rules: { commit_must_match: true, keys: [] },
    });
    expect(parse({ name: 'tests', format: 'junit' })).toEqual({ name: 'tests', format: 'junit' });
  });

  it('refuses rules of another format, rules without a format, and unknown formats', () => {
    expect(problems({ name: 'tests', format: 'junit', rules: { max_level: 'note' } })).not.toEqual([]);
    expect(problems({ name: 'tests', rules: { max_failed: 1 } })).not.toEqual([]);
    expect(problems({ name: 'tests', format: 'xunit' })).not.toEqual([]);
    expect(problems({ name: 'tests', format: 'junit', rules: { max_failed: -1 } })).not.toEqual([]);
    expect(problems({ name: 'scan', format: 'sarif', rules: { max_level: 'error' } })).not.toEqual([]);
  });

  it('validates denied licences as SPDX expressions', () => {
    const entry = (denied: string[]) => ({ name: 'sbom', format: 'cyclonedx', rules: { denied_licenses: denied } });
    expect(problems(entry(['GPL-3.0-only', 'AGPL-3.0-or-later', 'GPL-2.0+', 'LGPL-2.1-only OR LGPL-3.0-only']))).toEqual([]);
    expect(problems(entry(['GPL v3']))).toEqual([
      { path: ['rules', 'denied_licenses', 0], message: 'Not a valid SPDX licence id or expression.' },
    ]);
  });

  it('takes public JWKs of Ed25519, P-256 and RSA keys, and key ids', () => {
    const keys = [generateTestKey('ed25519', 'k1').jwk, generateTestKey('p256').jwk, generateTestKey('rsa').jwk, 'k1'];
    expect(problems({ name: 'prov', format: 'provenance', rules: { keys } })).toEqual([]);
  });

  it('refuses private keys, secret keys, short RSA keys and other curves', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const privateJwk = privateKey.export({ format: 'jwk' });
    const rsa1024 = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    for (const key of [privateJwk, { kty: 'oct', k: 'c2VjcmV0' }, rsa1024, p384, { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' }]) {
      expect(problems({ name: 'prov', format: 'provenance', rules: { keys: [key] } })).not.toEqual([]);
    }
    expect(publicKeyOfJwk(privateJwk as ProvenanceKey)).toBeNull();
  });

  it('a list keeps names unique', () => {
    expect(requiredEvidenceListSchema.safeParse(['tests', { name: 'scan', format: 'sarif' }]).success).toBe(true);
    expect(requiredEvidenceListSchema.safeParse(['tests', { name: 'tests', format: 'junit' }]).success).toBe(false);
  });
});

describe('provenanceKeysOf', () => {
  it('names every JWK of the provenance rules once (per kid), and no key id', () => {
    const a = generateTestKey('ed25519', 'a').jwk;
    const b = generateTestKey('p256').jwk;
    const entries: RequiredEvidenceEntry[] = requiredEvidenceListSchema.parse([
      'tests',
      { name: 'sbom', format: 'spdx', rules: { denied_licenses: ['GPL-3.0-only'] } },
      { name: 'prov', format: 'provenance', rules: { keys: [a, 'a', b] } },
      { name: 'prov2', format: 'provenance', rules: { keys: [{ ...a }, { ...a, kid: 'a-again' }] } },
      { name: 'prov3', format: 'provenance' },
    ]);
    expect(provenanceKeysOf(entries)).toEqual([a, b, { ...a, kid: 'a-again' }]);
    expect(provenanceKeysOf(['tests'])).toEqual([]);
  });
});
