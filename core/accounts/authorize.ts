import { ForbiddenError } from '../errors.js';
import type { Role } from './roles.js';
import type { Principal } from './user.js';

export function requireRoleOf(caller: Principal, roles: readonly Role[]): void {
  if (!roles.includes(caller.user.role)) throw new ForbiddenError(`Requires one of: ${roles.join(', ')}`);
}
