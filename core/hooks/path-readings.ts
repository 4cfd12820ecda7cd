import { loosePath } from '../policies/loose-spelling.js';

/** `path` as an absolute POSIX path without `.`, `..` or repeated slashes. */
function normalPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '' && part !== '.') parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The absolute path `path` names from `root`. */
const absolutePath = (root: string, path: string) => normalPath(path.startsWith('/') ? path : `${normalPath(root)}/${path}`);

/** The path relative to `root` (POSIX), `.` for the root itself; a path outside it stays absolute. */
export function repositoryPath(root: string, path: string): string {
  const base = normalPath(root);
  const full = absolutePath(base, path);
  if (full === base) return '.';
  const prefix = base === '/' ? '/' : `${base}/`;
  return full.startsWith(prefix) ? full.slice(prefix.length) : full;
}

/** `C:\repo\.env` as POSIX: backslashes as separators, a drive's root absolute (`/C:/repo/.env`). */
const windowsPath = (path: string) => path.replace(/\\/g, '/').replace(/^([A-Za-z]:\/)/, '/$1');

/** A working directory only Windows spells: a drive (`C:\`, `C:/`) or a backslash. */
const isWindowsRoot = (root: string) => /^[A-Za-z]:[\\/]/.test(root) || root.includes('\\');

/**
 * The path relative to `root` and, for one outside it that is inside as a case-insensitive
 * filesystem reads the root's names (`/Users/Me/shop/.env` under `/users/me/shop`), relative to it
 * as well.
 */
function withCaseInsensitiveRoot(root: string, path: string): string[] {
  const exact = repositoryPath(root, path);
  if (!exact.startsWith('/')) return [exact];
  const base = normalPath(root).split('/');
  const full = exact.split('/');
  if (base.length === 1 || full.length <= base.length) return [exact];
  if (!base.every((name, i) => loosePath(name) === loosePath(full[i]))) return [exact];
  return [exact, full.slice(base.length).join('/')];
}

/**
 * The readings of a path a tool call names (docs/agent-hooks.md, "Paths"): resolved from the
 * call's `cwd` (where the tool resolves it) and made relative to the session's `root` (the `cwd`
 * of its first call: the agent's `cd` moves `cwd`, not the repository); a path outside the root
 * stays absolute. Under a Windows root it is read as Windows reads it; else as a POSIX system
 * reads it and, for one holding a backslash, as Windows (or Git Bash) reads it too (`x\..\.env`
 * is `.env` there). Every reading is the call's: each must be granted and covered by an `allow`
 * rule, any may be refused (docs/agent-hooks.md, "Spellings the agent's machine reads alike").
 */
export function pathReadings(root: string, cwd: string, path: string): string[] {
  if (isWindowsRoot(root) || isWindowsRoot(cwd)) {
    return withCaseInsensitiveRoot(windowsPath(root), absolutePath(windowsPath(cwd), windowsPath(path)));
  }
  const readings = withCaseInsensitiveRoot(root, absolutePath(cwd, path));
  if (path.includes('\\')) readings.push(...withCaseInsensitiveRoot(root, absolutePath(cwd, windowsPath(path))));
  return [...new Set(readings)];
}
