import type { RepoPermission } from './github-port.js';

/** GitHub's built-in repository roles, and the classic `permission` each shows as. */
const BUILT_IN_ROLES: Record<string, RepoPermission> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
};

/**
 * A collaborator's permission from GitHub's two fields (docs/release-gate.md, "Agents on pull
 * requests"): `permission` is the classic level only (admin, write, read, none: a maintainer shows
 * as write, triage as read) and `role_name` the exact role, a custom role's own name included. The
 * exact role is taken when it is a built-in role `permission` agrees with; anything else (a custom
 * role, an unexpected pair) is taken as its `permission`, the base level GitHub maps it onto, so
 * "write, maintain or admin" never depends on a role name shipgate does not know.
 */
export function repoPermissionOf(permission: string | null | undefined, roleName: string | null | undefined): RepoPermission {
  const classic: RepoPermission = permission === 'admin' || permission === 'write' || permission === 'read' ? permission : 'none';
  const role = roleName?.toLowerCase() ?? '';
  return Object.hasOwn(BUILT_IN_ROLES, role) && BUILT_IN_ROLES[role] === classic ? (role as RepoPermission) : classic;
}
