import { ForbiddenError } from '../errors.js';
import { visibleOwnedResource } from '../executions/execution-access.js';
import type { Role } from './roles.js';
import type { Principal } from './user.js';

export function requireRoleOf(caller: Principal, roles: readonly Role[]): void {
  if (!roles.includes(caller.user.role)) throw new ForbiddenError(`Requires one of: ${roles.join(', ')}`);
}

/** @deprecated The owned-resource rules live in core/executions/execution-access.ts: call `visibleOwnedResource`. */
export const assertCanSee = visibleOwnedResource;
