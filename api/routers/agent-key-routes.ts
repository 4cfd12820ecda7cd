import { z } from 'zod';
import { generateApiKey, hashApiKey } from '../../core/accounts/api-key.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import type { AgentKey } from '../../core/mcp/agent-key.js';
import { resolveSessionTerms } from '../../core/mcp/open-agent-session.js';
import { resolvePermissions } from '../../core/policies/resolve-permissions.js';
import { defineRoute } from '../route.js';
import { locationHeader } from '../schemas/header-schemas.js';
import {
  agentKeyCreatedSchema,
  agentKeyCreateSchema,
  agentKeyParamsSchema,
  agentKeyRepointSchema,
  agentKeySchema,
} from '../schemas/mcp-schemas.js';

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
      '`mcp_url` becomes a new governed agent session of the repository, owned by the ADMIN who created the key. The key is shown once. ' +
      'It pins the newest version of its policy now (`policy_version`): a later version reaches it only when an ADMIN re-points it.',
    body: agentKeyCreateSchema,
    responses: {
      201: { description: 'Created.', schema: agentKeyCreatedSchema, headers: locationHeader('The list of agent keys.') },
    },
    errors: { 403: 'The requested permissions exceed the policy (each named).' },
    async handler({ body, caller, deps }) {
      const { policy } = await resolveSessionTerms({ policies: deps.policies, mcpServers: deps.mcpServers, resolvePermissions }, body);
      const key = generateApiKey();
      const created = await deps.agentKeys.create({
        name: body.name,
        repo_root: body.repo_root,
        compliance_policy: body.compliance_policy,
        policy_version: policy.version,
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
      if (!(await deps.agentKeys.revoke(params.key_id, 'revoked'))) throw new NotFoundError('Agent key', params.key_id);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/agent-keys/{key_id}',
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary: "Re-point a repository agent key's policy version (ADMIN)",
    description:
      'The only way a new version of a policy reaches an agent key: sessions the key opens from now on run under `compliance_policy` at ' +
      "`policy_version` (the newest when omitted); open sessions keep the version they opened with. The key's permissions and servers " +
      'are checked against it as at creation (403 naming each permission the version no longer allows). A revoked key answers 409.',
    params: agentKeyParamsSchema,
    body: agentKeyRepointSchema,
    responses: { 200: { description: 'The key as it is now.', schema: agentKeySchema } },
    errors: { 403: "The key's permissions exceed that version of the policy (each named).", 409: 'The key is revoked.' },
    async handler({ params, body, caller, deps }) {
      const key = await deps.agentKeys.get(params.key_id);
      if (!key) throw new NotFoundError('Agent key', params.key_id);
      const terms = {
        ...key,
        permissions: key.permissions ?? undefined,
        compliance_policy: body.compliance_policy ?? key.compliance_policy,
      };
      const { policy } = await resolveSessionTerms(
        { policies: deps.policies, mcpServers: deps.mcpServers, resolvePermissions },
        { ...terms, policy_version: body.policy_version },
      );
      const repointed = key.revoked_at
        ? null
        : await deps.agentKeys.repoint(key.id, { name: terms.compliance_policy, version: policy.version });
      if (!repointed) throw new ConflictError(`Agent key ${key.id} is revoked; create a new key instead.`);
      deps.logger.info(
        {
          event: 'mcp.agent_key_repointed',
          agent_key_id: key.id,
          by: caller.user.id,
          from: { policy: key.compliance_policy, version: key.policy_version },
          to: { policy: terms.compliance_policy, version: policy.version },
        },
        'agent key re-pointed',
      );
      return { body: agentKeyResponse(repointed) };
    },
  }),
];
