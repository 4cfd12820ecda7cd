import type { HookCall, HookCallStore } from './hook-call.js';

/**
 * Calls allowed in this process whose post has not come yet, by session and call id: a post
 * served by the process that allowed its call completes it without reading it back (one round
 * trip fewer on the agent's critical path). A post elsewhere, after a restart, or without a call
 * id reads the store as before; a post taken here that fails is read from the store on a retry.
 */
export function rememberOpenCalls(
  store: Pick<HookCallStore, 'open' | 'findOpen'>,
  kept = 10_000,
): Pick<HookCallStore, 'open' | 'findOpen'> {
  const opened = new Map<string, HookCall>();
  const keyOf = (executionId: string, callId: string) => `${executionId} ${callId}`;
  return {
    async open(call) {
      const id = await store.open(call);
      if (opened.size >= kept) opened.clear();
      opened.set(keyOf(call.execution_id, call.call_id), { ...call, id, requested_at: call.requested_at.toISOString() });
      return id;
    },
    async findOpen(executionId, tool, callId, agentId) {
      const key = callId === null ? null : keyOf(executionId, callId);
      const known = key === null ? undefined : opened.get(key);
      if (!known) return store.findOpen(executionId, tool, callId, agentId);
      opened.delete(key!);
      return known;
    },
  };
}
