import type { Principal } from '../accounts/user.js';
import { NotFoundError } from '../errors.js';
import type { Override } from './override.js';
import type { OverrideStore } from './override-store.js';

/**
 * Revokes an override (docs/release-gate.md, "Overrides"): by the overrider, or anyone `mayMaintain`
 * the override's repository allows (maintain on GitHub, or under `roles` an ADMIN or APPROVER). The
 * row stays, with who revoked it and when; revoking a revoked one answers it unchanged.
 */
export async function revokeOverride(
  store: OverrideStore,
  caller: Principal,
  id: string,
  mayMaintain: (repoRoot: string) => Promise<void>,
): Promise<Override> {
  const existing = await store.getOverride(id);
  if (!existing) throw new NotFoundError('Override', id);
  if (existing.created_by !== caller.user.id) await mayMaintain(existing.repo_root);
  if (existing.revoked_at !== null) return existing;
  return (await store.revokeOverride(id, caller.user.id)) ?? existing;
}
