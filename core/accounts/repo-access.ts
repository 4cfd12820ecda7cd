import { ForbiddenError, NotFoundError, ShipgateError, UnavailableError } from '../errors.js';
import type { RepoPermission } from '../github/github-port.js';
import type { Principal } from './user.js';

/**
 * Repository access (docs/api.md, "Repository access"): who may act on a repository. `roles`: the
 * shipgate role alone; `github`: a user linked to GitHub also needs GitHub's permission on the
 * repository; `github-required`: that, and users without a link get 403 on repository actions.
 */
export type RepoAccessMode = 'roles' | 'github' | 'github-required';

/** What an action on a repository needs on GitHub: reading it, writing to it, or maintaining it (maintain or admin). */
export type RepoNeed = 'read' | 'write' | 'maintain';

/** GitHub's permission of a user on a repository, or `not_installed` where the App cannot ask (no installation there). */
export type RepoPermissionFact = RepoPermission | 'not_installed';

/** The port: GitHub's answer for one user and repository. Throws when GitHub does not answer (5xx, network). */
export interface RepoPermissionReader {
  permissionOf(repoRoot: string, login: string): Promise<RepoPermissionFact>;
}

/** SHIPGATE_REPO_ACCESS as configured, else `github` while a GitHub App is configured, else `roles` (README, "Configuration"). */
export function repoAccessModeOf(configured: RepoAccessMode | undefined, appConfigured: boolean): RepoAccessMode {
  return configured ?? (appConfigured ? 'github' : 'roles');
}

// triage reads; maintain and admin both meet `maintain` (GitHub's own roles, core/github/repo-permission.ts).
const LEVEL: Record<RepoPermissionFact, number> = { not_installed: 0, none: 0, read: 1, triage: 1, write: 2, maintain: 3, admin: 3 };
const NEEDED: Record<RepoNeed, number> = { read: 1, write: 2, maintain: 3 };
const NEED_WORDS: Record<RepoNeed, string> = { read: 'read', write: 'write', maintain: 'maintain or admin' };

/** How a caller's repository actions are decided: no GitHub permission needed, a link to GitHub missing, or GitHub's answer. */
export type RepoAccessPath = { kind: 'role_only' } | { kind: 'link_required' } | { kind: 'github'; login: string };

/** ADMIN bypasses; under `roles` the role alone decides; an unlinked user keeps the role alone unless the mode is `github-required`. */
export function repoAccessPath(mode: RepoAccessMode, caller: Principal): RepoAccessPath {
  if (mode === 'roles' || caller.user.role === 'ADMIN') return { kind: 'role_only' };
  if (caller.github) return { kind: 'github', login: caller.github.login };
  return mode === 'github-required' ? { kind: 'link_required' } : { kind: 'role_only' };
}

export const LINK_REQUIRED =
  'Link your GitHub account to act on repositories: this server decides repository access by GitHub permissions (SHIPGATE_REPO_ACCESS=github-required).';

/**
 * The rule over GitHub's answer: a repository the user cannot read is 404 (its existence is not
 * revealed, and a repository where the App is not installed is not readable: fail closed); one
 * readable without the permission needed is 403 naming it.
 */
export function judgeRepoPermission(repoRoot: string, need: RepoNeed, permission: RepoPermissionFact): void {
  if (LEVEL[permission] < NEEDED.read) throw new NotFoundError('Repository', repoRoot);
  if (LEVEL[permission] < NEEDED[need])
    throw new ForbiddenError(
      `This action needs the ${NEED_WORDS[need]} permission on ${repoRoot} on GitHub; your GitHub permission there is ${permission}.`,
    );
}

export function mayRead(permission: RepoPermissionFact): boolean {
  return LEVEL[permission] >= NEEDED.read;
}

/** What routes call: the rule above, with the mode in force and GitHub's (cached) answers. */
export interface RepoAccess {
  /** Resolves when the caller may act on the repository with `need`; throws 404, 403 or 503 (UnavailableError) otherwise. */
  require(caller: Principal, repoRoot: string, need: RepoNeed): Promise<void>;
  /**
   * The repositories among `candidates()` the caller may read, for a list to show; undefined when
   * the role alone decides (nothing to hide, and `candidates` is not called). An unlinked user under
   * `github-required` reads none.
   */
  readableAmong(caller: Principal, candidates: () => Promise<readonly string[]>): Promise<string[] | undefined>;
}

/** Lookups a list starts at once, so a first listing over many repositories does not burst GitHub. */
const LIST_LOOKUP_CONCURRENCY = 8;

/** GitHub's failure is never an allow and never a 500: 503 with a detail. */
async function asked(reader: RepoPermissionReader, repoRoot: string, login: string): Promise<RepoPermissionFact> {
  try {
    return await reader.permissionOf(repoRoot, login);
  } catch (error) {
    if (error instanceof ShipgateError && !(error instanceof UnavailableError)) throw error;
    throw new UnavailableError(`GitHub did not answer the permission lookup for ${repoRoot}; try again shortly.`);
  }
}

export function createRepoAccess(options: { mode(): Promise<RepoAccessMode>; reader: RepoPermissionReader }): RepoAccess {
  const { reader } = options;
  return {
    async require(caller, repoRoot, need) {
      const path = repoAccessPath(await options.mode(), caller);
      if (path.kind === 'role_only') return;
      if (path.kind === 'link_required') throw new ForbiddenError(LINK_REQUIRED);
      judgeRepoPermission(repoRoot, need, await asked(reader, repoRoot, path.login));
    },
    async readableAmong(caller, candidates) {
      const path = repoAccessPath(await options.mode(), caller);
      if (path.kind === 'role_only') return undefined;
      if (path.kind === 'link_required') return [];
      const unique = [...new Set(await candidates())];
      const readable: string[] = [];
      for (let i = 0; i < unique.length; i += LIST_LOOKUP_CONCURRENCY) {
        const batch = unique.slice(i, i + LIST_LOOKUP_CONCURRENCY);
        const facts = await Promise.all(batch.map((repo) => asked(reader, repo, path.login)));
        batch.forEach((repo, j) => mayRead(facts[j]) && readable.push(repo));
      }
      return readable;
    },
  };
}
