import { canonicalDigest } from '../canonical-json.js';

/**
 * What a tool-call certificate's subject digests: the call as verified, i.e. the tool, its
 * arguments and the capabilities the execution held. Anyone holding the tool-call entry and
 * the execution's permissions can recompute it.
 */
export function planHash(plan: { tool: string; arguments: unknown; capabilities: readonly string[] }): string {
  return canonicalDigest({ tool: plan.tool, arguments: plan.arguments, capabilities: plan.capabilities });
}
