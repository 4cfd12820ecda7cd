import { generateApiKey, hashApiKey } from '../accounts/api-key.js';
import type { Principal } from '../accounts/user.js';
import { PolicyDeniedError, ValidationError } from '../errors.js';
import type { Execution } from '../executions/execution.js';
import { policyRef } from '../policies/policy-digest.js';
import type { Policy, PolicyStore, Resolution, StageRole } from '../policies/policy.js';
import type { AgentSessionStore } from './agent-session.js';
import type { McpServerRegistry } from './mcp-server-registry.js';

export interface AgentSessionInput {
  name: string;
  repo_root: string;
  branch?: string;
  compliance_policy: string;
  permissions?: string[];
  servers: string[];
  max_tool_calls?: number;
  expires_in_seconds: number;
}

export interface AgentSessionPorts {
  policies: Pick<PolicyStore, 'get'>;
  sessions: AgentSessionStore;
  mcpServers: Pick<McpServerRegistry, 'list'>;
  resolvePermissions(policy: Policy, stageRole: StageRole, requested?: readonly string[]): Resolution;
  now(): Date;
}

export interface OpenedAgentSession {
  execution: Execution;
  /** Shown once: only its hash is stored. */
  token: string;
  expires_at: string;
}

/**
 * POST /agent-sessions (docs/mcp-gateway.md, "Governed agent sessions"): resolves the policy and
 * the permissions strictly, as POST /tasks does, checks every named upstream is registered, and
 * opens a running execution of kind `agent_session` with a token scoped to it. Its call limit
 * is the policy's, or less when asked.
 */
export async function openAgentSession(ports: AgentSessionPorts, caller: Principal, input: AgentSessionInput): Promise<OpenedAgentSession> {
  const policy = await ports.policies.get(input.compliance_policy);
  if (!policy) throw ValidationError.single(['body', 'compliance_policy'], `Unknown compliance policy '${input.compliance_policy}'.`);
  const registered = new Set((await ports.mcpServers.list()).map((s) => s.name));
  const unknown = input.servers.filter((s) => !registered.has(s));
  if (unknown.length > 0) throw ValidationError.single(['body', 'servers'], `Not registered MCP servers: ${unknown.join(', ')}.`);
  const { effective, dropped } = ports.resolvePermissions(policy, 'worker', input.permissions);
  if (dropped.length > 0) throw new PolicyDeniedError(`Requested permissions exceed the ceiling of policy '${policy.name}'`, dropped);
  const token = generateApiKey();
  const expiresAt = new Date(ports.now().getTime() + input.expires_in_seconds * 1000);
  const execution = await ports.sessions.open({
    execution: {
      owner_id: caller.user.id,
      task: input.name,
      policy: policyRef(policy),
      stage_role: 'worker',
      permissions: effective,
      dropped_permissions: [],
      // No model spends through shipgate in a session: the agent brings its own.
      budget_cents: 0,
      provider: null,
      model: null,
      repo_root: input.repo_root,
      commit_sha: null,
    },
    servers: [...new Set(input.servers)],
    max_tool_calls: Math.min(input.max_tool_calls ?? policy.max_tool_calls, policy.max_tool_calls),
    branch: input.branch ?? null,
    expires_at: expiresAt,
    token_hash: hashApiKey(token),
  });
  return { execution, token, expires_at: expiresAt.toISOString() };
}
