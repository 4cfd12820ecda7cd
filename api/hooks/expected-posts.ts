import type { HookAgent, HookToolCall } from '../../core/hooks/hook-call.js';

/**
 * The posts this process expects: each call it allowed, by the token, agent, agent run and
 * `tool_use_id` its pre came with, naming the call's session. A post that matches completes its
 * call without reading the credential again (docs/agent-hooks.md, "How it is built"): the pre
 * authenticated it, was counted against the rate, and its call is bounded by the pre. Bounded;
 * forgotten all at once when full (such posts are then authenticated as any other).
 */
export function createExpectedPosts(kept = 10_000) {
  const sessions = new Map<string, string>();
  const tokens = new Set<string>();
  const keyOf = (tokenHash: string, agent: HookAgent, call: HookToolCall) =>
    `${tokenHash}\n${agent}\n${call.cliSessionId}\n${call.toolUseId}`;
  return {
    expect(tokenHash: string, agent: HookAgent, call: HookToolCall, sessionId: string): void {
      if (call.toolUseId === null) return;
      if (sessions.size >= kept) {
        sessions.clear();
        tokens.clear();
      }
      sessions.set(keyOf(tokenHash, agent, call), sessionId);
      tokens.add(tokenHash);
    },
    /** Whether a call allowed with this token may still await its post. */
    awaitsPostWith: (tokenHash: string): boolean => tokens.has(tokenHash),
    /** The session of the allowed call this post completes, taken (a post completes it once). */
    take(tokenHash: string, agent: HookAgent, call: HookToolCall): string | undefined {
      if (call.toolUseId === null) return undefined;
      const key = keyOf(tokenHash, agent, call);
      const sessionId = sessions.get(key);
      sessions.delete(key);
      return sessionId;
    },
  };
}
