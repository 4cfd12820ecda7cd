import { upstreamToolCapabilities } from '../../core/mcp/upstream-tool-capabilities.js';
import { builtInPolicy } from '../../core/policies/built-in-policies.js';
import { capabilityMatches } from '../../core/policies/capability-matches.js';
import { CAPABILITY_PATTERN } from '../../core/policies/capability-syntax.js';

describe('the capabilities of an upstream MCP tool', () => {
  it.each([
    ['no annotations: the worst case', undefined, ['mcp:gh/t', 'mcp:write', 'mcp:destructive', 'network:*']],
    ['read-only and closed-world', { readOnlyHint: true, openWorldHint: false }, ['mcp:gh/t']],
    ['read-only, open world by default', { readOnlyHint: true }, ['mcp:gh/t', 'network:*']],
    ['read-only ignores destructiveHint', { readOnlyHint: true, destructiveHint: true, openWorldHint: false }, ['mcp:gh/t']],
    ['writing, not destructive', { destructiveHint: false, openWorldHint: false }, ['mcp:gh/t', 'mcp:write']],
    ['writing, destructive by default', { readOnlyHint: false, openWorldHint: false }, ['mcp:gh/t', 'mcp:write', 'mcp:destructive']],
    ['explicit open world', { readOnlyHint: true, openWorldHint: true }, ['mcp:gh/t', 'network:*']],
  ])('%s', (_, annotations, expected) => {
    expect(upstreamToolCapabilities('gh', { name: 't', annotations })).toEqual(expected);
  });

  it('an explicit map entry replaces the derived set, keeping the tool own capability', () => {
    const tools = { t: ['repo:read'] };
    expect(upstreamToolCapabilities('gh', { name: 't' }, tools)).toEqual(['mcp:gh/t', 'repo:read']);
    expect(upstreamToolCapabilities('gh', { name: 'other', annotations: { readOnlyHint: true } }, tools)).toEqual([
      'mcp:gh/other',
      'network:*',
    ]);
  });

  it('is a valid capability that mcp:<server>/* grants and the regulated presets forbid when open-world', () => {
    const [own] = upstreamToolCapabilities('github', { name: 'create_issue' });
    expect(CAPABILITY_PATTERN.test(own)).toBe(true);
    expect(capabilityMatches('mcp:github/*', own)).toBe(true);
    expect(capabilityMatches('mcp:gitlab/*', own)).toBe(false);
    expect(capabilityMatches('mcp:*', 'mcp:destructive')).toBe(true);
    const hipaa = builtInPolicy('hipaa')!;
    const needs = upstreamToolCapabilities('github', { name: 'search', annotations: { readOnlyHint: true } });
    expect(needs.some((c) => hipaa.forbidden.some((f) => capabilityMatches(f, c)))).toBe(true);
  });
});
