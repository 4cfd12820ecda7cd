import type { HookCall, HookCallStore, NewHookCall } from './hook-call.js';

/** The hook call store's part a decision uses, keeping what this process opened (`opened`: a call written by another statement). */
export type OpenCallMemory = Pick<HookCallStore, 'open' | 'findOpen' | 'discard'> & { opened(call: NewHookCall, id: string): void };

/**
 * Calls allowed in this process whose post has not come yet, by session and call id: a post
 * served by the process that allowed its call completes it without reading it back (one round
 * trip fewer on the agent's critical path). A post elsewhere, after a restart, or without a call
 * id reads the store as before; a post taken here that fails is read from the store on a retry.
 */
export function rememberOpenCalls(store: Pick<HookCallStore, 'open' | 'findOpen' | 'discard'>, kept = 10_000): OpenCallMemory {
  const opened = new Map<string, HookCall>();
  const keyOf = (executionId: string, callId: string) => `${executionId} ${callId}`;
  const remember = (call: NewHookCall, id: string) => {
    if (opened.size >= kept) opened.clear();
    opened.set(keyOf(call.execution_id, call.call_id), { ...call, id, requested_at: call.requested_at.toISOString() });
  };
  return {
    async open(call) {
      const id = await store.open(call);
      if (id !== null) remember(call, id);
      return id;
    },
    opened: remember,
    discard: (id) => store.discard(id),
    async findOpen(executionId, tool, callId, agentId) {
      const key = callId === null ? null : keyOf(executionId, callId);
      const known = key === null ? undefined : opened.get(key);
      if (!known) return store.findOpen(executionId, tool, callId, agentId);
      opened.delete(key!);
      return known;
    },
  };
}
