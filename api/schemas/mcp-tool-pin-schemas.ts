import { z } from 'zod';
import { mcpServerNameSchema } from './mcp-schemas.js';

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
    state: z.enum(['pinned', 'changed', 'new', 'rejected']).meta({
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
