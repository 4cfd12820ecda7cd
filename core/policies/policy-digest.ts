import { canonicalDigest } from '../canonical-json.js';
import type { Policy, PolicyRef } from './policy.js';

/** SHA-256 (hex) of the policy's canonical JSON: what executions record and certificates name. */
export function policyDigest(policy: Policy): string {
  return canonicalDigest(policy);
}

export function policyRef(policy: Policy): PolicyRef {
  return { name: policy.name, version: policy.version, digest: policyDigest(policy) };
}
