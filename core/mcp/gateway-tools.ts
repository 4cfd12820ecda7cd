import { isForbidden } from '../policies/is-forbidden.js';
import type { Policy } from '../policies/policy.js';
import { capabilityMatches } from '../policies/capability-matches.js';
import type { McpUpstream } from './mcp-server-registry.js';
import type { UpstreamTool } from './mcp-upstream-client.js';
import { upstreamToolCapabilities } from './upstream-tool-capabilities.js';

/** Separates an upstream's name from its tool's in the names agents see: `github__create_issue`. */
export const TOOL_NAME_SEPARATOR = '__';

/** An upstream tool as the gateway offers it. */
export interface GatewayTool {
  /** `<server>__<tool>`. */
  name: string;
  server: string;
  upstreamName: string;
  capabilities: string[];
  tool: UpstreamTool;
}

/** Why a call to a tool is refused for lack of a capability, naming the capability. */
export interface MissingCapability {
  reason: 'forbidden_by_policy' | 'capability_not_granted';
  capability: string;
}

/** The tools of the session's upstreams, namespaced, each with the capabilities it needs. */
export function gatewayTools(upstreams: readonly { upstream: McpUpstream; tools: readonly UpstreamTool[] }[]): GatewayTool[] {
  return upstreams.flatMap(({ upstream, tools }) =>
    tools.map((tool) => ({
      name: `${upstream.name}${TOOL_NAME_SEPARATOR}${tool.name}`,
      server: upstream.name,
      upstreamName: tool.name,
      capabilities: upstreamToolCapabilities(upstream.name, tool, upstream.tools),
      tool,
    })),
  );
}

/**
 * The first capability the tool needs that the session may not use: one the policy forbids
 * (checked first, over all of them), else one its resolved permissions do not grant.
 */
export function missingCapability(
  capabilities: readonly string[],
  policy: Policy,
  permissions: readonly string[],
): MissingCapability | null {
  const forbidden = capabilities.find((c) => isForbidden(policy.forbidden, c));
  if (forbidden) return { reason: 'forbidden_by_policy', capability: forbidden };
  const ungranted = capabilities.find((c) => !permissions.some((pattern) => capabilityMatches(pattern, c)));
  return ungranted ? { reason: 'capability_not_granted', capability: ungranted } : null;
}

/** What `tools/list` shows a session: exactly the tools it may call. */
export function allowedTools(tools: readonly GatewayTool[], policy: Policy, permissions: readonly string[]): GatewayTool[] {
  return tools.filter((t) => missingCapability(t.capabilities, policy, permissions) === null);
}
