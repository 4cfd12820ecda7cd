import type { ListedDefinition, ToolPin, ToolPinState } from './mcp-tool-pins.js';

/** A stored pin's facts, from which its state follows. */
export interface StoredPin {
  tool: string;
  pinned: ListedDefinition | null;
  current: ListedDefinition;
  rejected_digest: string | null;
  changed_at: string;
  decided_by: string | null;
  decided_at: string | null;
}

/**
 * The most tools of one server that may await approval as `new` (docs/mcp-gateway.md, "Pinned tool definitions"): a
 * listing records a new tool only while fewer await, so an upstream inventing names cannot grow the store or bury the
 * review; the others stay quarantined, without a row, until an ADMIN's decisions make room. As many as the largest page
 * of the review holds.
 */
export const MAX_NEW_TOOL_PINS = 100;

/** A tool's state from the digests pinned, rejected and listed last. */
export function pinState(pin: {
  pinned: { digest: string } | null;
  current: { digest: string };
  rejected_digest: string | null;
}): ToolPinState {
  if (pin.pinned?.digest === pin.current.digest) return 'pinned';
  if (pin.rejected_digest === pin.current.digest) return 'rejected';
  return pin.pinned ? 'changed' : 'new';
}

export const toToolPin = (pin: StoredPin): ToolPin => ({
  tool: pin.tool,
  state: pinState(pin),
  pinned: pin.pinned,
  current: pin.current,
  changed_at: pin.changed_at,
  decided_by: pin.decided_by,
  decided_at: pin.decided_at,
});

/** Names in UTF-16 code unit order, as JavaScript compares strings: the same on every replica, whatever the database's collation. */
export const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a listing changes (docs/mcp-gateway.md, "Pinned tool definitions"): on the server's first
 * listing every tool is pinned as listed (trust on first use: the ADMIN who registered it vouched
 * for it); afterwards a tool whose definition differs keeps its old pin and becomes `changed`, a
 * tool never seen is `new`, and neither is callable until an ADMIN approves. A new tool is recorded
 * only while fewer than MAX_NEW_TOOL_PINS await approval, by name (so every replica and listing
 * picks the same ones); the rest are `unrecorded`. Answers the pins to write (those that differ
 * from what is stored), every recorded listed tool's pin, and the names left unrecorded.
 */
export function reconcileToolPins(
  firstListing: boolean,
  stored: ReadonlyMap<string, StoredPin>,
  listed: readonly ListedDefinition[],
  now: string,
): { writes: StoredPin[]; pins: Map<string, StoredPin>; unrecorded: string[] } {
  const writes: StoredPin[] = [];
  const pins = new Map<string, StoredPin>();
  const unseen: ListedDefinition[] = [];
  const write = (pin: StoredPin) => {
    writes.push(pin);
    pins.set(pin.tool, pin);
  };
  for (const current of listed) {
    const tool = current.definition.name;
    const before = stored.get(tool);
    if (!before) unseen.push(current);
    else if (before.current.digest !== current.digest) write({ ...before, current, changed_at: now });
    else pins.set(tool, before);
  }
  let awaiting = 0;
  for (const pin of stored.values()) if (pinState(pins.get(pin.tool) ?? pin) === 'new') awaiting++;
  const room = firstListing ? Infinity : Math.max(0, MAX_NEW_TOOL_PINS - awaiting);
  const recorded = unseen.sort((a, b) => compareNames(a.definition.name, b.definition.name)).slice(0, room);
  for (const current of recorded) {
    const tool = current.definition.name;
    write({
      tool,
      pinned: firstListing ? current : null,
      current,
      rejected_digest: null,
      changed_at: now,
      decided_by: null,
      decided_at: null,
    });
  }
  return { writes, pins, unrecorded: unseen.slice(recorded.length).map((l) => l.definition.name) };
}
