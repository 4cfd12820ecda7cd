import { z } from 'zod';
import { generateApiKey, hashApiKey } from '../../core/accounts/api-key.js';
import { NotFoundError } from '../../core/errors.js';
import type { AgentKey } from '../../core/mcp/agent-key.js';
import { resolveSessionTerms } from '../../core/mcp/open-agent-session.js';
import { resolvePermissions } from '../../core/policies/resolve-permissions.js';
import { defineRoute } from '../route.js';
import { locationHeader } from '../schemas/header-schemas.js';
import { agentKeyCreatedSchema, agentKeyCreateSchema, agentKeyParamsSchema, agentKeySchema } from '../schemas/mcp-schemas.js';

function agentKeyResponse(key: AgentKey) {
  const { session_seconds, created_by: _createdBy, ...rest } = key;
  return { ...rest, expires_in_seconds: session_seconds };
}

/** Repository agent keys (docs/mcp-gateway.md, "Repository agent keys"). */
export const agentKeyRoutes = [
  defineRoute({
    method: 'post',
    path: '/agent-keys',
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary: 'Create a repository agent key (ADMIN)',
    description:
      "For agents configured once (Copilot's coding agent reads MCP settings from the repository): each MCP session opened with the key at " +
      '`mcp_url` becomes a new governed agent session of the repository, owned by the ADMIN who created the key. The key is shown once.',
    body: agentKeyCreateSchema,
    responses: {
      201: { description: 'Created.', schema: agentKeyCreatedSchema, headers: locationHeader('The list of agent keys.') },
    },
    errors: { 403: 'The requested permissions exceed the policy (each named).' },
    async handler({ body, caller, deps }) {
      await resolveSessionTerms({ policies: deps.policies, mcpServers: deps.mcpServers, resolvePermissions }, body);
      const key = generateApiKey();
      const created = await deps.agentKeys.create({
        name: body.name,
        repo_root: body.repo_root,
        compliance_policy: body.compliance_policy,
        permissions: body.permissions ?? null,
        servers: [...new Set(body.servers)],
        max_tool_calls: body.max_tool_calls ?? null,
        session_seconds: body.expires_in_seconds,
        created_by: caller.user.id,
        key_hash: hashApiKey(key),
      });
      return {
        status: 201,
        body: { ...agentKeyResponse(created), key, mcp_url: `${deps.config.publicUrl}/api/v1/mcp` },
        headers: { Location: '/api/v1/agent-keys' },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/agent-keys',
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary: 'The repository agent keys (ADMIN)',
    description: 'Newest first, revoked ones included; never the keys themselves.',
    responses: { 200: { description: 'Every agent key.', schema: z.array(agentKeySchema) } },
    async handler({ deps }) {
      return { body: (await deps.agentKeys.list()).map(agentKeyResponse) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/agent-keys/{key_id}',
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary: 'Revoke a repository agent key (ADMIN)',
    description: 'The key opens no more sessions, and every request made with it is refused (401) from now on. Idempotent.',
    params: agentKeyParamsSchema,
    responses: { 204: { description: 'Revoked.' } },
    async handler({ params, deps }) {
      if (!(await deps.agentKeys.revoke(params.key_id))) throw new NotFoundError('Agent key', params.key_id);
      return { status: 204 };
    },
  }),
];
