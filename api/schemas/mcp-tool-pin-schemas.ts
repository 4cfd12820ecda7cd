import { z } from 'zod';
import { TOOL_PIN_STATES, type ToolPinCursor } from '../../core/mcp/mcp-tool-pins.js';
import { mcpServerNameSchema } from './mcp-schemas.js';
import { pageQuerySchema } from './pagination-schemas.js';

/** An upstream tool's name as the upstream lists it (any characters: it is matched, never parsed). */
const upstreamToolNameSchema = z.string().min(1).max(256);

const definitionSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: z.record(z.string(), z.unknown()),
    annotations: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: 'What agents are shown of the tool; its digest is the SHA-256 of its canonical JSON.' });

const pinnedDefinitionSchema = z.object({ definition: definitionSchema, digest: z.string().regex(/^[0-9a-f]{64}$/) });

/** One upstream tool's pin (docs/mcp-gateway.md, "Pinned tool definitions"). */
export const mcpToolPinSchema = z
  .object({
    tool: z.string(),
    state: z.enum(TOOL_PIN_STATES).meta({
      description: "Only `pinned` tools are listed to agents and callable; the others await (or were refused) an ADMIN's approval.",
    }),
    pinned: pinnedDefinitionSchema
      .nullable()
      .meta({ description: 'The approved definition (the old one of a changed tool); null if never approved.' }),
    current: pinnedDefinitionSchema.meta({ description: 'The definition the upstream listed last.' }),
    changed_at: z.string(),
    decided_by: z.uuid().nullable(),
    decided_at: z.string().nullable(),
  })
  .meta({ id: 'McpToolPin' });

/** The cursor of the review: the state and name of the page's last tool. */
export function encodeToolPinCursor(cursor: ToolPinCursor): string {
  return Buffer.from(JSON.stringify([cursor.state, cursor.tool])).toString('base64url');
}

export function decodeToolPinCursor(raw: string): ToolPinCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[1] === 'string' && upstreamToolNameSchema.safeParse(value[1]).success) {
      const state = TOOL_PIN_STATES.find((known) => known === value[0]);
      if (state) return { state, tool: value[1] };
    }
  } catch {
    // not ours
  }
  return undefined;
}

export const mcpToolPinQuerySchema = z.object({
  limit: pageQuerySchema.shape.limit,
  cursor: z
    .string()
    // A name of 256 characters each escaped as \uXXXX, in base64: under 2,100.
    .max(2100)
    .optional()
    .refine((c) => c === undefined || decodeToolPinCursor(c) !== undefined, 'Invalid cursor.')
    .meta({ description: "Opaque cursor from the previous page's Link header." }),
  state: z.enum(TOOL_PIN_STATES).optional().meta({ description: 'Only the tools in this state.' }),
});

export const mcpToolPinParamsSchema = z.object({ name: mcpServerNameSchema, tool: upstreamToolNameSchema });

export const mcpToolDecisionSchema = z
  .object({
    digest: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'A hex SHA-256.')
      .optional()
      .meta({ description: 'The `current.digest` reviewed: refused (409) when the upstream listed another definition since.' }),
  })
  .strict()
  // No body at all decides the definition listed last, as `{}` does (as an approval of a held call may omit its body).
  .optional();
