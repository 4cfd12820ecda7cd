import { capabilityMatches } from './capability-matches.js';
import type { Policy } from './policy.js';

/** How long a held call waits when the policy names no `ask_timeout_seconds`. */
export const DEFAULT_ASK_TIMEOUT_SECONDS = 120;

/**
 * The first of a call's capabilities the policy puts under `ask`, or null (docs/mcp-gateway.md,
 * "Asking a person"): such a call is held until an independent person approves it.
 */
export function askedCapability(capabilities: readonly string[], policy: Pick<Policy, 'ask'>): string | null {
  const ask = policy.ask ?? [];
  return capabilities.find((c) => ask.some((pattern) => capabilityMatches(pattern, c))) ?? null;
}
