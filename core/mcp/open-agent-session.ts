import { generateApiKey, hashApiKey } from '../accounts/api-key.js';
import { PolicyDeniedError, ValidationError } from '../errors.js';
import type { Execution } from '../executions/execution.js';
import { policyRef } from '../policies/policy-digest.js';
import type { Policy, PolicyStore, Resolution, StageRole } from '../policies/policy.js';
import type { WorkflowRun } from '../release/evidence.js';
import type { AgentSessionStore, NewAgentSession } from './agent-session.js';
import type { McpServerRegistry } from './mcp-server-registry.js';

export interface AgentSessionInput {
  name: string;
  repo_root: string;
  branch?: string;
  compliance_policy: string;
  /** The version of `compliance_policy` to run under (an agent key's pinned one); the newest when omitted. */
  policy_version?: number;
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
  branch: string | null;
}

/** What a session's terms resolve to: its policy and effective permissions. */
export interface SessionTerms {
  policy: Policy;
  permissions: string[];
}

/**
 * Checks a session's terms, for a session or for an agent key that will open sessions: the
 * policy exists (at `policy_version` when one is named, else its newest), every named upstream is registered, and the permissions resolve strictly, as
 * for POST /tasks (any dropped permission refuses the whole request, naming each).
 */
export async function resolveSessionTerms(
  ports: Omit<AgentSessionPorts, 'sessions' | 'now'>,
  input: Pick<AgentSessionInput, 'compliance_policy' | 'policy_version' | 'servers' | 'permissions'>,
): Promise<SessionTerms> {
  const policy = await ports.policies.get(input.compliance_policy, input.policy_version);
  if (!policy && input.policy_version !== undefined && (await ports.policies.get(input.compliance_policy)))
    throw ValidationError.single(
      ['body', 'policy_version'],
      `Compliance policy '${input.compliance_policy}' has no version ${input.policy_version}.`,
    );
  if (!policy) throw ValidationError.single(['body', 'compliance_policy'], `Unknown compliance policy '${input.compliance_policy}'.`);
  const registered = new Set((await ports.mcpServers.list()).map((s) => s.name));
  const unknown = input.servers.filter((s) => !registered.has(s));
  if (unknown.length > 0) throw ValidationError.single(['body', 'servers'], `Not registered MCP servers: ${unknown.join(', ')}.`);
  const { effective, dropped } = ports.resolvePermissions(policy, 'worker', input.permissions);
  if (dropped.length > 0) throw new PolicyDeniedError(`Requested permissions exceed the ceiling of policy '${policy.name}'`, dropped);
  return { policy, permissions: effective };
}

/**
 * POST /agent-sessions, or an agent key's new MCP session (docs/mcp-gateway.md, "Governed agent
 * sessions"): resolves the terms and opens a running execution of kind `agent_session` owned by
 * `ownerId`, with a token scoped to it. Its call limit is the policy's, or less when asked.
 * `agentKey` or `workflowRun` records what opened it, when not a user's API key; an agent key's
 * session is refused (RateLimitedError, nothing written) while `max_open` of its sessions are open.
 */
export async function openAgentSession(
  ports: AgentSessionPorts,
  ownerId: string,
  input: AgentSessionInput,
  agentKey: NewAgentSession['agent_key'] = null,
  workflowRun: WorkflowRun | null = null,
): Promise<OpenedAgentSession> {
  const { policy, permissions } = await resolveSessionTerms(ports, input);
  const token = generateApiKey();
  const expiresAt = new Date(ports.now().getTime() + input.expires_in_seconds * 1000);
  const execution = await ports.sessions.open({
    execution: {
      owner_id: ownerId,
      task: input.name,
      policy: policyRef(policy),
      stage_role: 'worker',
      permissions,
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
    agent_key: agentKey,
    workflow_run: workflowRun,
  });
  return { execution, token, expires_at: expiresAt.toISOString(), branch: input.branch ?? null };
}
