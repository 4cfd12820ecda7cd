import type { Knex } from 'knex';
import { ConflictError } from '../../../core/errors.js';
import type { McpToolPins, ToolPin } from '../../../core/mcp/mcp-tool-pins.js';
import { pinState, reconcileToolPins, toToolPin, type StoredPin } from '../../../core/mcp/reconcile-tool-pins.js';
import type { ToolDefinition } from '../../../core/mcp/tool-definition.js';
import { toolPinPage } from '../../../core/mcp/tool-pin-page.js';
import { readInOneSnapshot } from '../../read-in-one-snapshot.js';
import type { McpServerRow, McpToolPinRow } from '../../tables.js';

function toStored(row: McpToolPinRow): StoredPin {
  return {
    tool: row.tool,
    pinned:
      row.pinned_definition && row.pinned_digest
        ? { definition: row.pinned_definition as unknown as ToolDefinition, digest: row.pinned_digest }
        : null,
    current: { definition: row.current_definition as unknown as ToolDefinition, digest: row.current_digest },
    rejected_digest: row.rejected_digest,
    changed_at: row.changed_at.toISOString(),
    decided_by: row.decided_by,
    decided_at: row.decided_at?.toISOString() ?? null,
  };
}

function toRow(server: string, pin: StoredPin): McpToolPinRow {
  return {
    server_name: server,
    tool: pin.tool,
    pinned_definition: (pin.pinned?.definition as unknown as Record<string, unknown>) ?? null,
    pinned_digest: pin.pinned?.digest ?? null,
    current_definition: pin.current.definition as unknown as Record<string, unknown>,
    current_digest: pin.current.digest,
    rejected_digest: pin.rejected_digest,
    changed_at: new Date(pin.changed_at),
    decided_by: pin.decided_by,
    decided_at: pin.decided_at ? new Date(pin.decided_at) : null,
  };
}

async function storedPins(db: Knex, server: string): Promise<Map<string, StoredPin>> {
  const rows = await db<McpToolPinRow>('mcp_tool_pins').where({ server_name: server }).orderBy('tool');
  return new Map(rows.map((row) => [row.tool, toStored(row)]));
}

/** The pinned tool definitions in PostgreSQL (migration 048); the rules are core/mcp/reconcile-tool-pins.ts. */
export function createMcpToolPins(db: Knex, now: () => Date = () => new Date()): McpToolPins {
  return {
    async reconcile(server, listed) {
      // Most listings change nothing: read without a lock, and write only when something differs.
      const read = async (tx: Knex, lock: boolean) => {
        const query = tx<McpServerRow>('mcp_servers').where({ name: server }).first('tools_pinned_at');
        const row = await (lock ? query.forUpdate() : query);
        if (!row) return null;
        const first = row.tools_pinned_at === null;
        return { first, ...reconcileToolPins(first, await storedPins(tx, server), listed, now().toISOString()) };
      };
      const answer = ({ pins, unrecorded }: { pins: Map<string, StoredPin>; unrecorded: string[] }) => ({
        pins: new Map([...pins].map(([tool, pin]) => [tool, toToolPin(pin)])),
        unrecorded,
      });
      const none = { pins: new Map<string, ToolPin>(), unrecorded: [] };
      const seen = await read(db, false);
      if (!seen) return none;
      if (!seen.first && seen.writes.length === 0) return answer(seen);
      // The server's row is locked first, so the new tools awaiting approval are counted by one writer at a time.
      return db.transaction(async (tx) => {
        const locked = await read(tx, true);
        if (!locked) return none;
        if (locked.writes.length > 0) {
          await tx<McpToolPinRow>('mcp_tool_pins')
            .insert(locked.writes.map((pin) => toRow(server, pin)))
            .onConflict(['server_name', 'tool'])
            .merge();
        }
        if (locked.first) await tx<McpServerRow>('mcp_servers').where({ name: server }).update({ tools_pinned_at: now() });
        return answer(locked);
      });
    },
    async list(server, page) {
      // The page is chosen from every tool's digests (the state is core's rule), then only its rows are read whole.
      return readInOneSnapshot(db, async (tx) => {
        const found = await tx<McpServerRow>('mcp_servers').where({ name: server }).first('name');
        if (!found) return null;
        const digests = await tx<McpToolPinRow>('mcp_tool_pins')
          .where({ server_name: server })
          .select('tool', 'pinned_digest', 'current_digest', 'rejected_digest');
        const chosen = toolPinPage(
          digests.map((row) => ({
            tool: row.tool,
            state: pinState({
              pinned: row.pinned_digest === null ? null : { digest: row.pinned_digest },
              current: { digest: row.current_digest },
              rejected_digest: row.rejected_digest,
            }),
          })),
          page,
        );
        const rows = await tx<McpToolPinRow>('mcp_tool_pins')
          .where({ server_name: server })
          .whereIn(
            'tool',
            chosen.tools.map((pin) => pin.tool),
          );
        const byTool = new Map(rows.map((row) => [row.tool, toToolPin(toStored(row))]));
        return { items: chosen.tools.map((pin) => byTool.get(pin.tool)!), next: chosen.next };
      });
    },
    async decide(server, tool, decision, by, digest) {
      return db.transaction(async (tx) => {
        const row = await tx<McpToolPinRow>('mcp_tool_pins').where({ server_name: server, tool }).forUpdate().first();
        if (!row) return null;
        const pin = toStored(row);
        if (digest !== undefined && digest !== pin.current.digest) {
          throw new ConflictError(`The definition of '${tool}' changed: its current digest is ${pin.current.digest}.`);
        }
        if (decision === 'reject' && pinState(pin) === 'pinned') {
          throw new ConflictError(`'${tool}' is pinned as listed; only a changed or new definition can be rejected.`);
        }
        const decided: StoredPin =
          decision === 'approve'
            ? { ...pin, pinned: pin.current, rejected_digest: null, decided_by: by, decided_at: now().toISOString() }
            : { ...pin, rejected_digest: pin.current.digest, decided_by: by, decided_at: now().toISOString() };
        await tx<McpToolPinRow>('mcp_tool_pins').where({ server_name: server, tool }).update(toRow(server, decided));
        return toToolPin(decided);
      });
    },
  };
}
