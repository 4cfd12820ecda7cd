import { z } from 'zod';
import { checkGlob, compilePathGlobs, GlobSyntaxError } from '../linear-glob.js';

/**
 * The gate's path and branch globs are matched by core/linear-glob.ts: `*` and `?` within a segment, `**` across
 * segments, braces and `[ranges]` kept (an unbalanced bracket is refused rather than read literally), dotfiles matched
 * (`.github/**` must match `.github/workflows/ci.yml`), no negation (`paths_ignore` says "except"), no extglobs. The
 * paths are a pull request's, which its author (an agent too) names: the regular expression picomatch built from a
 * glob of three `**` segments took half a second over one crafted 7 KB path, and a pull request lists 3,000 paths.
 */

/**
 * A gitignore-style glob as the globs that match it (docs/release-gate.md, "Rules"): a leading `/` or a slash inside anchors
 * it at the root, one without a slash matches at any depth (`*.tf`, `CODEOWNERS`), a trailing `/` means a directory,
 * and a glob that names a directory also matches everything under it (`infra` owns `infra/main.tf`).
 */
function matchedGlobs(glob: string): string[] {
  const directory = glob.endsWith('/');
  let body = glob;
  while (body.startsWith('/')) body = body.slice(1);
  while (body.endsWith('/')) body = body.slice(0, -1);
  const anchored = glob.startsWith('/') || body.includes('/');
  const rooted = anchored ? body : `**/${body}`;
  return directory ? [`${rooted}/**`] : [rooted, `${rooted}/**`];
}

/** Why a glob cannot be used, or null. */
function globProblem(glob: string): string | null {
  if (glob.startsWith('!')) return 'Negation (`!`) is not a glob here: list the paths to leave out in `paths_ignore`.';
  try {
    // matchedGlobs only adds `**` segments and drops slashes: the glob itself decides whether they compile.
    checkGlob(glob, 'path');
    return null;
  } catch (error) {
    if (error instanceof GlobSyntaxError) return `Not a glob shipgate reads: ${error.message}.`;
    throw error;
  }
}

/** One glob of the gate (`paths`, `paths_ignore`, `base_branches`, `protected_paths.paths`): it must compile. */
export const pathGlobSchema = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .superRefine((glob, ctx) => {
    const problem = globProblem(glob);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A list of globs: at most 100. */
export const pathGlobListSchema = z.array(pathGlobSchema).max(100);

/**
 * Compiled matchers by their glob list (ARCHITECTURE.md, "Process-local state"): a decision judges every rule again,
 * and compiling costs more than matching, so each list is compiled once per process. Never stale (the globs fix the
 * matcher); bounded, as gates come and go.
 */
const compiled = new Map<string, (subject: string) => boolean>();
const COMPILED_MAX = 5_000;

/**
 * One matcher for the whole list, cached by the list. A list holding a glob stored before its syntax was refused (an
 * extglob) matches as `unreadable` says: every subject where that keeps the gate in force, none where matching would
 * let a path out of it (`paths_ignore`).
 */
function cachedMatcher(kind: string, globs: readonly string[], unreadable: boolean): (subject: string) => boolean {
  const key = `${kind}${unreadable ? '' : '!'}\u0000${globs.join('\u0000')}`;
  let matcher = compiled.get(key);
  if (!matcher) {
    try {
      matcher = compilePathGlobs(kind === 'path' ? globs.flatMap(matchedGlobs) : globs);
    } catch (error) {
      if (!(error instanceof GlobSyntaxError)) throw error;
      matcher = () => unreadable;
    }
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(key, matcher);
  }
  return matcher;
}

/** Whether a repository path matches any of the globs, gitignore-style; no glob matches nothing. */
export function pathMatcher(globs: readonly string[], unreadable = true): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  return cachedMatcher('path', globs, unreadable);
}

/**
 * Whether a branch name matches any of the globs, as written: a branch is a name, not a path, so `main` matches only
 * `main` and `release/*` matches `release/1.x` (as GitHub's branch rulesets read `fnmatch` globs).
 */
export function branchMatcher(globs: readonly string[]): (branch: string) => boolean {
  if (globs.length === 0) return () => false;
  return cachedMatcher('branch', globs, true);
}

/**
 * The paths that match `include` (every path when absent) and none of `ignore`, kept per path list: a commit's stored
 * facts are cached across polls (their touched paths are one frozen list, `touchedPaths`), so each rule filters its
 * 3,000 paths once, not on every poll. Callers only read the answer.
 */
export function pathsMatching(paths: readonly string[], include: readonly string[] | undefined, ignore: readonly string[] = []): string[] {
  const key = `${include ? include.join('\u0000') : '\u0001'}\u0002${ignore.join('\u0000')}`;
  let byGlobs = matched.get(paths);
  if (!byGlobs) {
    byGlobs = new Map();
    matched.set(paths, byGlobs);
  }
  let found = byGlobs.get(key);
  if (!found) {
    const included = include ? pathMatcher(include) : () => true;
    const ignored = pathMatcher(ignore, false);
    found = Object.freeze(paths.filter((p) => included(p) && !ignored(p))) as string[];
    byGlobs.set(key, found);
  }
  return found;
}
const matched = new WeakMap<readonly string[], Map<string, string[]>>();
