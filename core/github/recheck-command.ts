import type { RepoPermission } from './github-port.js';

/** `/shipgate recheck` on a line of its own (case-insensitive, surrounding text allowed). */
const RECHECK = /^\s*\/shipgate\s+recheck\s*$/im;

export function isRecheckCommand(body: string): boolean {
  return RECHECK.test(body);
}

/** Asking for a re-evaluation needs push access, as re-running a check in GitHub does. */
export function mayRecheck(permission: RepoPermission): boolean {
  return permission === 'admin' || permission === 'maintain' || permission === 'write';
}
