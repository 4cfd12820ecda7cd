import { authorizeWorkflow } from '../../core/accounts/oidc.js';
import { NotFoundError } from '../../core/errors.js';
import { AGENT_SESSION, requireOwnedResource } from '../../core/executions/owned-resource-access.js';
import { hookSettingsFile } from '../../core/hooks/hook-settings-files.js';
import { DEFAULT_ASK_TIMEOUT_SECONDS } from '../../core/policies/asked-capability.js';
import type { Policy } from '../../core/policies/policy.js';
import { defineRoute } from '../route.js';
import { hookSettingsFileSchema, hookSettingsQuerySchema } from '../schemas/hook-settings-schemas.js';
import { agentKeyParamsSchema, agentSessionParamsSchema } from '../schemas/mcp-schemas.js';

const askTimeout = (policy: Policy | null) => policy?.ask_timeout_seconds ?? DEFAULT_ASK_TIMEOUT_SECONDS;

const FILE_DESCRIPTION =
  'The file to drop into the repository (`path`) so that every tool call of the agent is decided by shipgate: ' +
  '`.claude/settings.json` (http hooks, `onFailure: "block"`), `.github/hooks/shipgate.json` (http hooks) ' +
  'or `.gemini/settings.json` (command hooks running `shipgate hook gemini`). The credential is read from the environment variable ' +
  '`SHIPGATE_TOKEN`, never written into the file; each hook waits longer than the policy holds an asked call (docs/agent-hooks.md, ' +
  '"Configuration handed out").';

/** The hook configuration handed out for a session or an agent key (docs/agent-hooks.md, "Configuration handed out"). */
export const hookSettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/agent-sessions/{session_id}/hooks',
    tags: ['mcp'],
    auth: 'any',
    summary: "An agent session's hook configuration for a coding agent",
    description:
      `${FILE_DESCRIPTION} Whoever may read the session may read it (404 otherwise), and a GitHub Actions OIDC token of the ` +
      "session's repository (the Action's `mode: session` with `agent`).",
    params: agentSessionParamsSchema,
    query: hookSettingsQuerySchema,
    workflows: { permission: 'open_agent_session', repository: () => null },
    responses: { 200: { description: 'The configuration file.', schema: hookSettingsFileSchema } },
    async handler({ params, query, caller, workflow, deps }) {
      const session = await deps.agentSessions.get(params.session_id);
      const asked = { kind: AGENT_SESSION, id: params.session_id, action: 'read' } as const;
      if (!workflow) await requireOwnedResource(deps.repoAccess, caller, asked, session);
      else if (!session?.repo_root) throw new NotFoundError('Agent session', params.session_id);
      else authorizeWorkflow(workflow, 'open_agent_session', session.repo_root);
      const execution = await deps.executions.get(params.session_id);
      if (!execution) throw new NotFoundError('Agent session', params.session_id);
      const policy = await deps.policies.get(execution.policy.name, execution.policy.version);
      return { body: hookSettingsFile(query.agent, { publicUrl: deps.config.publicUrl, askTimeoutSeconds: askTimeout(policy) }) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/agent-keys/{key_id}/hooks',
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary: "A repository agent key's hook configuration for a coding agent (ADMIN)",
    description:
      `${FILE_DESCRIPTION} With the key as SHIPGATE_TOKEN, each run of the agent (its own session id) becomes one governed agent ` +
      "session of the key's repository. A revoked key's configuration is still handed out; its calls are refused (401).",
    params: agentKeyParamsSchema,
    query: hookSettingsQuerySchema,
    responses: { 200: { description: 'The configuration file.', schema: hookSettingsFileSchema } },
    async handler({ params, query, deps }) {
      const key = await deps.agentKeys.get(params.key_id);
      if (!key) throw new NotFoundError('Agent key', params.key_id);
      const policy = await deps.policies.get(key.compliance_policy, key.policy_version);
      return { body: hookSettingsFile(query.agent, { publicUrl: deps.config.publicUrl, askTimeoutSeconds: askTimeout(policy) }) };
    },
  }),
];
