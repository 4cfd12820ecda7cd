import { ForbiddenError, NotFoundError } from '../errors.js';
import type { Role } from '../accounts/roles.js';
import type { Principal } from '../accounts/user.js';

/**
 * Who may see and act on a resource someone owns (an execution today, a workflow next). The rules
 * are general on purpose: a resource type passes its owner id, never its own record type.
 */

/** Roles that see every user's owned resources (read only for AUDITOR). */
export const ROLES_SEEING_ALL: readonly Role[] = ['ADMIN', 'AUDITOR'];
/** Roles that may cancel another user's run. */
export const ROLES_CANCELLING_ANY: readonly Role[] = ['ADMIN'];

/** The owner, ADMIN and AUDITOR see an owned resource. */
export function canSeeOwnedResource(caller: Principal, ownerId: string): boolean {
  return ownerId === caller.user.id || ROLES_SEEING_ALL.includes(caller.user.role);
}

/** The owner and ADMIN may cancel; an AUDITOR reads but does not act. */
export function canCancelOwnedResource(caller: Principal, ownerId: string): boolean {
  return ownerId === caller.user.id || ROLES_CANCELLING_ANY.includes(caller.user.role);
}

/** `scope=all` on a list: every user's resources, for ADMIN and AUDITOR only. */
export function mayListAll(caller: Principal): boolean {
  return ROLES_SEEING_ALL.includes(caller.user.role);
}

/**
 * The resource when the caller may see it; NotFound otherwise (also for a resource that exists
 * but belongs to someone else, so its existence is not revealed).
 */
export function visibleOwnedResource<T extends { owner_id: string }>(
  caller: Principal,
  resource: T | null | undefined,
  resourceName: string,
  id: string,
): T {
  if (!resource || !canSeeOwnedResource(caller, resource.owner_id)) throw new NotFoundError(resourceName, id);
  return resource;
}

/** Throws 403 when a caller who may see the resource may not cancel it; `what` reads "an execution". */
export function assertCanCancel(caller: Principal, ownerId: string, what: string): void {
  if (!canCancelOwnedResource(caller, ownerId)) throw new ForbiddenError(`Only the owner or an ADMIN may cancel ${what}.`);
}

/** Throws 403 when the caller asks for `scope=all` without a role that sees everything. */
export function assertMayListAll(caller: Principal): void {
  if (!mayListAll(caller)) throw new ForbiddenError(`Requires one of: ${ROLES_SEEING_ALL.join(', ')}`);
}
