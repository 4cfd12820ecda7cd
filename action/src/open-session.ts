import * as core from '@actions/core';
import { oneLine, readAgentSession } from './answers.js';
import type { ShipgateClient } from './http-client.js';
import type { SessionInputs } from './session-inputs.js';
import type { AgentSession, AgentSessionRequest } from './shipgate-types.js';

/**
 * `mode: session`: opens a governed agent session of `repository` on the job's branch and hands
 * its MCP endpoint to the next steps. The token is masked before it is written anywhere, so the
 * runner shows *** wherever a later step prints it; the outputs are set by handOnSession.
 */
export async function openSession(client: ShipgateClient, repository: string, session: SessionInputs): Promise<AgentSession> {
  const what = `open an agent session for ${repository}`;
  const answer = await client.post(
    '/agent-sessions',
    {
      name: session.name,
      repo_root: repository,
      ...(session.branch ? { branch: session.branch } : {}),
      ...(session.compliancePolicy ? { compliance_policy: session.compliancePolicy } : {}),
      ...(session.permissions ? { permissions: session.permissions } : {}),
      servers: session.servers,
      ...(session.expiresInSeconds ? { expires_in_seconds: session.expiresInSeconds } : {}),
    } satisfies AgentSessionRequest,
    what,
  );
  // Masked at once when it is a token at all; readAgentSession refuses one the runner cannot mask.
  if (typeof (answer as { token?: unknown } | null)?.token === 'string') core.setSecret((answer as { token: string }).token);
  const opened = readAgentSession(answer, what);
  return opened;
}

/**
 * The session's outputs, set once everything else of the step has succeeded (with `agent`, once
 * its hooks are written): a step that fails hands no session on.
 */
export function handOnSession(opened: AgentSession, repository: string, session: SessionInputs): void {
  core.setOutput('mcp-url', opened.mcp_url);
  core.setOutput('token', opened.token);
  core.setOutput('session-id', opened.id);
  core.setOutput('execution-id', opened.execution_id);
  core.info(
    `Opened agent session ${opened.id} for ${repository}${opened.branch ? ` on ${oneLine(opened.branch, 300)}` : ''} ` +
      `(servers: ${session.servers.join(', ') || 'none'}; until ${oneLine(opened.expires_at, 100)}). MCP endpoint: ${oneLine(opened.mcp_url, 2048)}`,
  );
}
