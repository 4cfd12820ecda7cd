import type { Knex } from 'knex';

/**
 * At most 100 new tools of a server await approval (docs/mcp-gateway.md, "Pinned tool definitions";
 * core/mcp/reconcile-tool-pins.ts, MAX_NEW_TOOL_PINS). A server an upstream flooded with invented tool
 * names before this bound holds more: its 100 oldest new tools are kept (by when they were listed) and
 * the others deleted. Nothing an ADMIN decided goes (pinned, changed and rejected tools stay), and a
 * deleted one loses nothing: it was never callable, and the upstream's next listing records it again
 * once fewer than 100 await. `new`, as of this migration: never approved, and not rejected as listed.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    DELETE FROM mcp_tool_pins AS pin
    USING (
      SELECT server_name, tool,
             row_number() OVER (PARTITION BY server_name ORDER BY changed_at, tool) AS place
      FROM mcp_tool_pins
      WHERE pinned_digest IS NULL AND rejected_digest IS DISTINCT FROM current_digest
    ) AS awaiting
    WHERE pin.server_name = awaiting.server_name AND pin.tool = awaiting.tool AND awaiting.place > 100
  `);
}
