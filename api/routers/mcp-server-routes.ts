import { z } from 'zod';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { pinUpstreamTools } from '../../core/mcp/pin-upstream-tools.js';
import { defineRoute } from '../route.js';
import { locationHeader } from '../schemas/header-schemas.js';
import { mcpServerCreateSchema, mcpServerParamsSchema, mcpServerSchema } from '../schemas/mcp-schemas.js';

/** The upstream MCP servers agent sessions may reach through the gateway (docs/mcp-gateway.md). */
export const mcpServerRoutes = [
  defineRoute({
    method: 'post',
    path: '/mcp/servers',
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary: 'Register an upstream MCP server (ADMIN)',
    description:
      'A Streamable HTTP MCP server that governed agent sessions may call through shipgate. `headers` are stored encrypted with ' +
      'SHIPGATE_SECRET_KEY and never returned; `tools` maps a tool to the capabilities it needs, replacing what its annotations imply.',
    body: mcpServerCreateSchema,
    responses: {
      201: { description: 'Registered.', schema: mcpServerSchema, headers: locationHeader('The list of servers.') },
    },
    errors: {
      409: 'A server with this name is already registered.',
      422: '`auth.github_app` without the GitHub App configured, or beside an `Authorization` header.',
    },
    async handler({ body, caller, deps }) {
      if (body.auth?.github_app) {
        // The minted token is the upstream's bearer token: a stored one would be sent in its place (docs/mcp-gateway.md).
        if (Object.keys(body.headers ?? {}).some((h) => h.toLowerCase() === 'authorization'))
          throw ValidationError.single(
            ['body', 'headers', 'Authorization'],
            'With auth.github_app, shipgate sends the minted installation token as Authorization: remove this header.',
          );
        const why = await deps.installationTokens.whyNot();
        if (why) throw ValidationError.single(['body', 'auth', 'github_app'], why);
      }
      const server = await deps.mcpServers.create(body, caller.user.id);
      await pinUpstreamTools({ ...deps, warn: (event, fields) => deps.logger.warn({ event, ...fields }, event) }, server);
      return { status: 201, body: server, headers: { Location: '/api/v1/mcp/servers' } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mcp/servers',
    tags: ['mcp'],
    auth: ['ADMIN', 'OPERATOR'],
    summary: 'The registered upstream MCP servers (ADMIN, OPERATOR)',
    description: 'By name; headers by name only.',
    responses: { 200: { description: 'Every registered server.', schema: z.array(mcpServerSchema) } },
    async handler({ deps }) {
      return { body: await deps.mcpServers.list() };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/mcp/servers/{name}',
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary: 'Remove an upstream MCP server (ADMIN)',
    description: 'Sessions opened afterwards cannot name it; calls already recorded keep their records.',
    params: mcpServerParamsSchema,
    responses: { 204: { description: 'Removed.' } },
    async handler({ params, deps }) {
      if (!(await deps.mcpServers.delete(params.name))) throw new NotFoundError('MCP server', params.name);
      return { status: 204 };
    },
  }),
];
