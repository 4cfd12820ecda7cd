import { ForbiddenError, NotFoundError } from '../errors.js';
import type { Role } from './roles.js';
import type { Principal } from './user.js';

export function requireRoleOf(caller: Principal, roles: readonly Role[]): void {
  if (!roles.includes(caller.user.role)) throw new ForbiddenError(`Requires one of: ${roles.join(', ')}`);
}

/**
 * Owner-or-role access to a resource. Anyone else gets NotFound, never Forbidden, so the
 * existence of another user's resource is not revealed.
 */
export function assertCanSee<T extends { owner_id: string }>(
  caller: Principal,
  resource: T | null | undefined,
  resourceName: string,
  id: string,
  rolesSeeingAll: readonly Role[] = ['ADMIN', 'AUDITOR'],
): T {
  if (!resource) throw new NotFoundError(resourceName, id);
  if (resource.owner_id !== caller.user.id && !rolesSeeingAll.includes(caller.user.role)) throw new NotFoundError(resourceName, id);
  return resource;
}
