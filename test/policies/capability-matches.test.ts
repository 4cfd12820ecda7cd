import { capabilityCovers, capabilityMatches, intersectCapability } from '../../core/policies/capability-matches.js';
import { CAPABILITY_PATTERN } from '../../core/policies/capability-syntax.js';

describe('capabilityMatches', () => {
  it.each([
    ['repo:read', 'repo:read', true],
    ['repo:read', 'repo:write', false],
    ['repo:read', 'repo:read:all', false],
    ['network:*', 'network:http:get', true],
    ['network:*', 'network', true],
    ['network:*', 'networking:http', false],
    ['document:write:*', 'document:write:reports', true],
    ['document:write:*', 'document:read:reports', false],
    ['*', 'anything:at:all', true],
    ['document:*:reports', 'document:write:reports', true],
    ['document:*:reports', 'document:write:other', false],
  ])('%s grants %s: %s', (pattern, capability, expected) => {
    expect(capabilityMatches(pattern, capability)).toBe(expected);
  });
});

describe('capabilityCovers and intersectCapability', () => {
  it('compare patterns by what they match', () => {
    expect(capabilityCovers('document:*', 'document:write:*')).toBe(true);
    expect(capabilityCovers('document:write:*', 'document:*')).toBe(false);
    expect(capabilityCovers('*', 'network:*')).toBe(true);
    expect(capabilityCovers('network:http:get', 'network:*')).toBe(false);
  });

  it('narrow a pattern to a ceiling, or give nothing when they do not overlap', () => {
    expect(intersectCapability('document:*', 'document:write:*')).toBe('document:write:*');
    expect(intersectCapability('document:write:reports', 'document:*')).toBe('document:write:reports');
    expect(intersectCapability('*', 'repo:read')).toBe('repo:read');
    expect(intersectCapability('network:*', 'repo:read')).toBeNull();
  });
});

describe('capability syntax', () => {
  it.each(['repo:read', 'network:*', '*', 'document:write:reports', 'a.b-c_d:*', 'mcp:github/create_issue', 'mcp:github/*'])(
    'accepts %s',
    (c) => expect(CAPABILITY_PATTERN.test(c)).toBe(true),
  );
  it.each(['', 'repo:', ':read', 'net*', 'repo read', 'repo::read', 'répo:read', 'mcp:github/', 'mcp:/x'])('refuses %j', (c) =>
    expect(CAPABILITY_PATTERN.test(c)).toBe(false),
  );
});
