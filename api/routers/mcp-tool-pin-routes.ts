import { z } from 'zod';
import { NotFoundError } from '../../core/errors.js';
import type { McpToolPins } from '../../core/mcp/mcp-tool-pins.js';
import { MAX_NEW_TOOL_PINS } from '../../core/mcp/reconcile-tool-pins.js';
import { defineRoute } from '../route.js';
import { mcpServerParamsSchema } from '../schemas/mcp-schemas.js';
import {
  decodeToolPinCursor,
  encodeToolPinCursor,
  mcpToolDecisionSchema,
  mcpToolPinParamsSchema,
  mcpToolPinQuerySchema,
  mcpToolPinSchema,
} from '../schemas/mcp-tool-pin-schemas.js';
import { linkNext, linkNextHeader } from '../schemas/pagination-schemas.js';

async function decide(
  pins: McpToolPins,
  params: { name: string; tool: string },
  decision: 'approve' | 'reject',
  by: string,
  digest: string | undefined,
) {
  const pin = await pins.decide(params.name, params.tool, decision, by, digest);
  if (!pin) throw new NotFoundError('tool', `${params.name}/${params.tool}`);
  return { body: pin };
}

const decisionRoute = (decision: 'approve' | 'reject', summary: string, description: string) =>
  defineRoute({
    method: 'post',
    path: `/mcp/servers/{name}/tools/{tool}/${decision}`,
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary,
    description,
    params: mcpToolPinParamsSchema,
    body: mcpToolDecisionSchema,
    responses: { 200: { description: 'The tool as it stands now.', schema: mcpToolPinSchema } },
    errors: {
      404: 'No such server, or the upstream never listed this tool.',
      409:
        decision === 'approve'
          ? 'The upstream listed another definition since the one `digest` names.'
          : 'The upstream listed another definition since the one `digest` names, or the tool is pinned as listed.',
    },
    async handler({ params, body, caller, deps }) {
      return decide(deps.mcpToolPins, params, decision, caller.user.id, body?.digest);
    },
  });

/** The pinned tool definitions of an upstream and an ADMIN's decisions on them (docs/mcp-gateway.md, "Pinned tool definitions"). */
export const mcpToolPinRoutes = [
  defineRoute({
    method: 'get',
    path: '/mcp/servers/{name}/tools',
    tags: ['mcp'],
    auth: ['ADMIN'],
    summary: "An upstream's tools and their pins (ADMIN)",
    description:
      'Every tool the upstream has listed, with its state (`pinned`, `changed`, `new`, `rejected`), the approved definition and the one ' +
      'listed last. Only pinned tools are listed to agents; the others await an approval. What awaits an ADMIN comes first: `changed` ' +
      'tools, then `new`, `rejected` and `pinned` ones, each by name; `state` keeps one of them. `limit` and `cursor` page through ' +
      `them, the next page announced in the Link header. At most ${MAX_NEW_TOOL_PINS} tools of a server are \`new\` at once: while ` +
      `${MAX_NEW_TOOL_PINS} await, further new tools are not recorded (nor listed to agents, nor callable) until approving or ` +
      'rejecting some makes room.',
    params: mcpServerParamsSchema,
    query: mcpToolPinQuerySchema,
    responses: {
      200: {
        description: 'Changed, new, rejected, then pinned tools, each by name; next page in the Link header.',
        schema: z.array(mcpToolPinSchema),
        headers: linkNextHeader,
      },
    },
    errors: { 404: 'No such server.' },
    async handler({ params, query, ctx, deps }) {
      const page = await deps.mcpToolPins.list(params.name, {
        limit: query.limit,
        state: query.state,
        after: query.cursor ? decodeToolPinCursor(query.cursor) : undefined,
      });
      if (!page) throw new NotFoundError('MCP server', params.name);
      linkNext(ctx, page.next && encodeToolPinCursor(page.next));
      return { body: page.items };
    },
  }),
  decisionRoute(
    'approve',
    "Approve a tool's current definition (ADMIN)",
    'Pins the definition the upstream listed last: the tool is listed to agents and callable again, and its calls are certified with this digest.',
  ),
  decisionRoute(
    'reject',
    "Reject a tool's current definition (ADMIN)",
    'The tool stays unlisted and its calls are refused (`tool_rejected`) while the upstream lists this definition.',
  ),
];
