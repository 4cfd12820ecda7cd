import { allowedTools, gatewayTools, missingCapability } from '../../core/mcp/gateway-tools.js';
import type { McpUpstream } from '../../core/mcp/mcp-server-registry.js';
import { builtInPolicy } from '../../core/policies/built-in-policies.js';

const github: McpUpstream = {
  name: 'github',
  url: 'https://mcp.example.com/mcp',
  header_names: [],
  headers: {},
  tools: { delete_repo: ['repo:admin'] },
  auth: null,
  created_at: new Date(0).toISOString(),
};
const schema = { type: 'object' };
const tools = gatewayTools([
  {
    upstream: github,
    tools: [
      { name: 'get_issue', inputSchema: schema, annotations: { readOnlyHint: true, openWorldHint: false } },
      { name: 'create_issue', inputSchema: schema, annotations: { destructiveHint: false, openWorldHint: false } },
      { name: 'search', inputSchema: schema, annotations: { readOnlyHint: true } },
      { name: 'delete_repo', inputSchema: schema },
    ],
  },
]);

describe('the tools a session sees', () => {
  it('are namespaced <server>__<tool>, each with the capabilities it needs', () => {
    expect(tools.map((t) => [t.name, t.capabilities])).toEqual([
      ['github__get_issue', ['mcp:github/get_issue']],
      ['github__create_issue', ['mcp:github/create_issue', 'mcp:write']],
      ['github__search', ['mcp:github/search', 'network:*']],
      ['github__delete_repo', ['mcp:github/delete_repo', 'repo:admin']],
    ]);
  });

  it('are exactly those whose every capability is granted and none forbidden', () => {
    const policy = builtInPolicy('default')!;
    expect(allowedTools(tools, policy, ['mcp:github/*']).map((t) => t.name)).toEqual(['github__get_issue']);
    expect(allowedTools(tools, policy, ['mcp:github/*', 'mcp:write']).map((t) => t.name)).toEqual([
      'github__get_issue',
      'github__create_issue',
    ]);
    expect(allowedTools(tools, { ...policy, forbidden: ['network:*'] }, ['*']).map((t) => t.name)).toEqual([
      'github__get_issue',
      'github__create_issue',
      'github__delete_repo',
    ]);
  });

  it('name the missing capability, a forbidden one before an ungranted one', () => {
    const hipaa = builtInPolicy('hipaa')!;
    const search = tools.find((t) => t.name === 'github__search')!;
    expect(missingCapability(search.capabilities, hipaa, hipaa.defaults)).toEqual({
      reason: 'forbidden_by_policy',
      capability: 'network:*',
    });
    const create = tools.find((t) => t.name === 'github__create_issue')!;
    expect(missingCapability(create.capabilities, hipaa, ['mcp:github/*'])).toEqual({
      reason: 'capability_not_granted',
      capability: 'mcp:write',
    });
  });
});
