import { canonicalDigest } from '../../core/canonical-json.js';
import { BUILT_IN_POLICIES, builtInPolicy } from '../../core/policies/built-in-policies.js';
import { policyDigest, policyRef } from '../../core/policies/policy-digest.js';

describe('built-in presets', () => {
  it('are default, hipaa, sox and legal_privilege (alias legal)', () => {
    expect(BUILT_IN_POLICIES.map((p) => p.name)).toEqual(['default', 'hipaa', 'sox', 'legal_privilege']);
    expect(builtInPolicy('legal')).toBe(builtInPolicy('legal_privilege'));
    expect(builtInPolicy('pci')).toBeUndefined();
  });

  it('default allows anything, warns on denials and checks for secrets for a year', () => {
    expect(builtInPolicy('default')).toMatchObject({
      ceiling: ['*'],
      defaults: ['*'],
      forbidden: [],
      denied_call_severity: 'warning',
      output_rules: ['secrets'],
      retention_days: 365,
    });
  });

  it.each([
    ['hipaa', 2190],
    ['sox', 2555],
    ['legal_privilege', 3650],
  ])('%s is regulated: no network, blocking, secrets and PII, %i days', (name, days) => {
    const ceiling = ['lineage:read', 'repo:read', 'document:*', 'review:submit', 'release:write'];
    expect(builtInPolicy(name as string)).toMatchObject({
      ceiling,
      defaults: ceiling,
      forbidden: ['network:*'],
      denied_call_severity: 'blocking',
      output_rules: ['secrets', 'pii'],
      retention_days: days,
    });
  });

  it('have a digest over their canonical JSON, recorded with name and version', () => {
    const hipaa = builtInPolicy('hipaa')!;
    expect(policyDigest(hipaa)).toBe(canonicalDigest(JSON.parse(JSON.stringify(hipaa))));
    expect(policyRef(hipaa)).toEqual({ name: 'hipaa', version: 1, digest: policyDigest(hipaa) });
    expect(new Set(BUILT_IN_POLICIES.map(policyDigest)).size).toBe(4);
  });
});
