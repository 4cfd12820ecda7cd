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

/** A tool's state from what was pinned, rejected and listed last. */
export function pinState(pin: Pick<StoredPin, 'pinned' | 'current' | 'rejected_digest'>): ToolPinState {
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

/**
 * What a listing changes (docs/mcp-gateway.md, "Pinned tool definitions"): on the server's first
 * listing every tool is pinned as listed (trust on first use: the ADMIN who registered it vouched
 * for it); afterwards a tool whose definition differs keeps its old pin and becomes `changed`, a
 * tool never seen is `new`, and neither is callable until an ADMIN approves. Answers the pins to
 * write (those that differ from what is stored) and every listed tool's pin.
 */
export function reconcileToolPins(
  firstListing: boolean,
  stored: ReadonlyMap<string, StoredPin>,
  listed: readonly ListedDefinition[],
  now: string,
): { writes: StoredPin[]; pins: Map<string, StoredPin> } {
  const writes: StoredPin[] = [];
  const pins = new Map<string, StoredPin>();
  for (const current of listed) {
    const tool = current.definition.name;
    const before = stored.get(tool);
    let pin: StoredPin;
    if (!before) {
      pin = {
        tool,
        pinned: firstListing ? current : null,
        current,
        rejected_digest: null,
        changed_at: now,
        decided_by: null,
        decided_at: null,
      };
      writes.push(pin);
    } else if (before.current.digest !== current.digest) {
      pin = { ...before, current, changed_at: now };
      writes.push(pin);
    } else pin = before;
    pins.set(tool, pin);
  }
  return { writes, pins };
}
