/**
 * Every tag an operation may carry, with what it groups. `RouteDef.tags` is typed by this list
 * and /openapi.json declares all of it, so no operation can use an undeclared tag (docs/api.md).
 */
export const API_TAGS = {
  auth: "Registration, log-in, and the caller's own API keys.",
  users: 'User accounts, roles and deactivation (ADMIN).',
  policies: 'Compliance policies: the built-in presets and versioned custom policies that bound what an agent run may do.',
  compliance:
    'The built-in presets, the keys certificates are signed with, and signed audit packages that `shipgate verify` checks offline.',
  releases:
    'The release gate: per-repository gates, evidence, SHIP / NO_SHIP decisions, promotions, deployment reviews and the GitHub App webhook.',
  trust: "The public trust badge of a commit's release state.",
  executions: 'Governed agent runs: create, list, inspect and cancel them, with their tool calls and certificates.',
  workflows: 'Multi-stage workflows of governed executions, and their signed audit packages.',
  github: 'The GitHub App: its one-click registration from the studio (ADMIN), and what it sees.',
  mcp: 'The MCP gateway: upstream MCP servers, and governed agent sessions whose tool calls pass through shipgate.',
} as const;

export type ApiTag = keyof typeof API_TAGS;
