import type { RepoPermission } from './github-port.js';

/** The line terminators of a regex's `^`/`$` under the `m` flag, so a line here is a line there. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** `/shipgate recheck` as a whole line (case-insensitive, white space around and between the words). */
const RECHECK_LINE = /^\s*\/shipgate\s+recheck\s*$/i;

/**
 * `/shipgate recheck` on a line of its own, other lines allowed (docs/github-app.md, "Events").
 * Each line is tested on its own: a multi-line regex over the whole body was quadratic on a
 * comment of blank lines, which anyone who can comment could send (docs/operations.md,
 * "Regular expressions").
 */
export function isRecheckCommand(body: string): boolean {
  return body.split(LINE_BREAK).some((line) => RECHECK_LINE.test(line));
}

/** Asking for a re-evaluation needs push access, as re-running a check in GitHub does. */
export function mayRecheck(permission: RepoPermission): boolean {
  return permission === 'admin' || permission === 'maintain' || permission === 'write';
}
