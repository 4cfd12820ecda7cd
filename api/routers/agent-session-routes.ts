import { workflowRunOf } from '../../core/accounts/oidc.js';
import { NotFoundError } from '../../core/errors.js';
import { AGENT_SESSION, requireOwnedResource } from '../../core/executions/owned-resource-access.js';
import { closeAgentSession } from '../../core/mcp/close-agent-session.js';
import { openAgentSession } from '../../core/mcp/open-agent-session.js';
import { WORKFLOW_SESSION_OWNER, workflowSessionBranch } from '../../core/mcp/workflow-session.js';
import { resolvePermissions } from '../../core/policies/resolve-permissions.js';
import { defineRoute } from '../route.js';
import { executionWithOwnerSchema } from '../schemas/execution-schemas.js';
import { withOwnerName } from '../owner-names.js';
import { locationHeader } from '../schemas/header-schemas.js';
import { agentSessionCreateSchema, agentSessionParamsSchema, agentSessionSchema } from '../schemas/mcp-schemas.js';

/** Where an agent session's MCP endpoint is served (docs/mcp-gateway.md). */
export function agentSessionMcpPath(sessionId: string): string {
  return `/api/v1/mcp/sessions/${sessionId}`;
}

/** Governed agent sessions of the MCP gateway (docs/mcp-gateway.md, "Governed agent sessions"). */
export const agentSessionRoutes = [
  defineRoute({
    method: 'post',
    path: '/agent-sessions',
    tags: ['mcp'],
    auth: ['ADMIN', 'OPERATOR'],
    summary: 'Open a governed agent session (ADMIN, OPERATOR, or a GitHub Actions OIDC token)',
    description:
      'An execution of kind `agent_session`, running until it is closed, cancelled or expires. Its agent calls the tools of the named ' +
      'upstream MCP servers at `mcp_url` with `token` (shown once); every call is verified against the resolved permissions, recorded and certified. ' +
      "A GitHub Actions OIDC token (instead of an API key) may open a session for its own repository (the token's `repository` claim, else 403) " +
      "on its own branch (the `ref` claim's branch, or a pull request's head branch; `branch` defaults to it, another answers 403); " +
      'the session then records the workflow run (`workflow_run`) and is owned by the built-in `github-actions` account (ADMIN and AUDITOR see it).',
    body: agentSessionCreateSchema,
    workflows: { permission: 'open_agent_session', repository: ({ body }) => body.repo_root },
    repoAccess: { need: 'write', repository: ({ body }) => body.repo_root },
    responses: {
      201: { description: 'Opened.', schema: agentSessionSchema, headers: locationHeader("The session's execution record.") },
    },
    errors: {
      403: "The requested permissions exceed the policy (each named); for a workflow, another repository or branch than the token's.",
    },
    async handler({ body, caller, workflow, deps }) {
      const ports = {
        policies: deps.policies,
        sessions: deps.agentSessions,
        mcpServers: deps.mcpServers,
        resolvePermissions,
        now: () => new Date(),
      };
      const run = workflow ? workflowRunOf(workflow) : null;
      const opened = workflow
        ? await openAgentSession(
            ports,
            WORKFLOW_SESSION_OWNER.id,
            { ...body, branch: workflowSessionBranch(workflow, body.branch) ?? undefined },
            null,
            run,
          )
        : await openAgentSession(ports, caller.user.id, body);
      const id = opened.execution.id;
      const by = run ? { workflow_run: run } : { by: caller.user.id };
      deps.logger.info({ execution_id: id, servers: body.servers, ...by }, 'agent session opened');
      return {
        status: 201,
        body: {
          id,
          execution_id: id,
          mcp_url: `${deps.config.publicUrl}${agentSessionMcpPath(id)}`,
          token: opened.token,
          expires_at: opened.expires_at,
          branch: opened.branch,
          workflow_run: run,
        },
        headers: { Location: `/api/v1/executions/${id}` },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/agent-sessions/{session_id}/close',
    tags: ['mcp'],
    auth: 'any',
    summary: 'Close an agent session (idempotent)',
    description:
      "The session's execution finishes (`completed`) with its verdict and an execution certificate over every recorded call; its token " +
      'stops working. Closing an ended session changes nothing. Owner or ADMIN; anyone else who may not see it gets 404.',
    params: agentSessionParamsSchema,
    responses: { 200: { description: "The session's execution after the request.", schema: executionWithOwnerSchema } },
    async handler({ params, caller, deps }) {
      // Closing ends the session as cancelling would: the same check, write on its repository included.
      const asked = { kind: AGENT_SESSION, id: params.session_id, action: 'cancel' } as const;
      const session = await requireOwnedResource(deps.repoAccess, caller, asked, await deps.agentSessions.get(params.session_id));
      await closeAgentSession(deps, session.id);
      const execution = await deps.executions.get(session.id);
      if (!execution) throw new NotFoundError('Agent session', params.session_id);
      return { body: await withOwnerName(deps.accounts, execution) };
    },
  }),
];
