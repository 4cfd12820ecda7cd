import { builtInPolicy } from '../../core/policies/built-in-policies.js';
import type { Policy, StageRole } from '../../core/policies/policy.js';
import { resolvePermissions } from '../../core/policies/resolve-permissions.js';

const preset = (name: string) => builtInPolicy(name)!;
const custom: Policy = { ...preset('default'), name: 'no-net', ceiling: ['*'], defaults: ['repo:read'], forbidden: ['network:*'] };

describe('resolvePermissions', () => {
  it.each<[string, Policy, StageRole, string[] | undefined, string[], [string, string][]]>([
    ['default grants what is asked', preset('default'), 'worker', ['repo:read', 'network:http:get'], ['repo:read', 'network:http:get'], []],
    ['default grants * to a worker', preset('default'), 'worker', ['*'], ['*'], []],
    [
      '* under default is narrowed to the role',
      preset('default'),
      'release',
      ['*'],
      ['lineage:read', 'repo:read', 'document:read:*', 'release:write'],
      [],
    ],
    [
      'hipaa forbids the network',
      preset('hipaa'),
      'worker',
      ['repo:read', 'network:http:get'],
      ['repo:read'],
      [['network:http:get', 'forbidden_by_policy']],
    ],
    ['hipaa forbids network:* itself', preset('hipaa'), 'worker', ['network:*'], [], [['network:*', 'forbidden_by_policy']]],
    [
      '* under hipaa is a wildcard denial',
      preset('hipaa'),
      'worker',
      ['*', 'repo:read'],
      ['repo:read'],
      [['*', 'wildcard_denied_under_compliance']],
    ],
    ['* under sox too', preset('sox'), 'reviewer', ['*'], [], [['*', 'wildcard_denied_under_compliance']]],
    [
      'outside the hipaa ceiling',
      preset('hipaa'),
      'worker',
      ['repo:write', 'shell:exec'],
      [],
      [
        ['repo:write', 'exceeds_policy_ceiling'],
        ['shell:exec', 'exceeds_policy_ceiling'],
      ],
    ],
    [
      'the release role may not review',
      preset('default'),
      'release',
      ['review:submit', 'release:write'],
      ['release:write'],
      [['review:submit', 'exceeds_role_allowance']],
    ],
    [
      'the intake role may not read documents',
      preset('legal'),
      'intake',
      ['document:read:x'],
      [],
      [['document:read:x', 'exceeds_role_allowance']],
    ],
    ['a reviewer may fetch under default', preset('default'), 'reviewer', ['network:http:get'], ['network:http:get'], []],
    ['a broad request is narrowed by both ceilings', preset('hipaa'), 'intake', ['document:*'], ['document:write:*'], []],
    ['partly forbidden patterns are kept (enforced per call)', custom, 'worker', ['*'], ['*'], []],
    ['duplicates and covered patterns collapse', preset('default'), 'worker', ['repo:read', 'repo:*', 'repo:read'], ['repo:*'], []],
  ])('%s', (_name, policy, role, requested, effective, dropped) => {
    const resolution = resolvePermissions(policy, role, requested);
    expect(resolution.effective).toEqual(effective);
    expect(resolution.dropped.map((d) => [d.permission, d.reason])).toEqual(dropped);
  });

  it('explains every drop in words naming the policy or role', () => {
    const { dropped } = resolvePermissions(preset('hipaa'), 'release', ['*', 'network:http:get', 'shell:exec', 'review:submit']);
    expect(dropped).toEqual([
      { permission: '*', reason: 'wildcard_denied_under_compliance', detail: expect.stringContaining("policy 'hipaa'") },
      { permission: 'network:http:get', reason: 'forbidden_by_policy', detail: "Policy 'hipaa' forbids network:*." },
      {
        permission: 'shell:exec',
        reason: 'exceeds_policy_ceiling',
        detail: "Outside the ceiling of policy 'hipaa': lineage:read, repo:read, document:*, review:submit, release:write.",
      },
      {
        permission: 'review:submit',
        reason: 'exceeds_role_allowance',
        detail: "Stage role 'release' allows only lineage:read, repo:read, document:read:*, release:write.",
      },
    ]);
  });

  it.each([undefined, []])('grants the policy defaults when %j is requested, narrowed silently to the role', (requested) => {
    expect(resolvePermissions(preset('hipaa'), 'worker', requested)).toEqual({
      effective: ['lineage:read', 'repo:read', 'document:*', 'review:submit', 'release:write'],
      dropped: [],
    });
    expect(resolvePermissions(preset('hipaa'), 'release', requested)).toEqual({
      effective: ['lineage:read', 'repo:read', 'document:read:*', 'release:write'],
      dropped: [],
    });
    expect(resolvePermissions(preset('default'), 'intake', requested)).toEqual({
      effective: ['lineage:read', 'repo:read', 'document:write:*'],
      dropped: [],
    });
    expect(resolvePermissions(custom, 'worker', requested)).toEqual({ effective: ['repo:read'], dropped: [] });
  });
});
