import { ForbiddenError, NotFoundError, ShipgateError, UnavailableError } from '../errors.js';
import type { RepoPermission } from '../github/github-port.js';
import type { GitHubLink, Principal, User } from './user.js';

/**
 * Repository access (docs/api.md, "Repository access"): who may act on a repository. `roles`: the
 * shipgate role alone; `github`: a user ever linked to GitHub also needs GitHub's permission on the
 * repository, and one never linked reads public repositories only (unless an ADMIN made it a
 * service account); `github-required`: that, except that users never linked get 403 on repository actions.
 */
export type RepoAccessMode = 'roles' | 'github' | 'github-required';

/** What an action on a repository needs on GitHub: reading it, writing to it, or maintaining it (maintain or admin). */
export type RepoNeed = 'read' | 'write' | 'maintain';

/** GitHub's permission of a user on a repository, or `not_installed` where the App cannot ask (no installation there). */
export type RepoPermissionFact = RepoPermission | 'not_installed';

/** Whether GitHub shows a repository to anyone (`public`), else `private` (private, internal or gone), or `not_installed`. */
export type RepoVisibilityFact = 'public' | 'private' | 'not_installed';

/** The port: GitHub's answers about one repository. Each throws when GitHub does not answer (5xx, network). */
export interface RepoPermissionReader {
  /** The permission of the GitHub account with this numeric id (never a login: logins are reusable after a rename). */
  permissionOf(repoRoot: string, githubUserId: number): Promise<RepoPermissionFact>;
  visibilityOf(repoRoot: string): Promise<RepoVisibilityFact>;
}

/** SHIPGATE_REPO_ACCESS as configured, else `github` while a GitHub App is configured, else `roles` (README, "Configuration"). */
export function repoAccessModeOf(configured: RepoAccessMode | undefined, appConfigured: boolean): RepoAccessMode {
  return configured ?? (appConfigured ? 'github' : 'roles');
}

// triage reads; maintain and admin both meet `maintain` (GitHub's own roles, core/github/repo-permission.ts).
const LEVEL: Record<RepoPermissionFact, number> = { not_installed: 0, none: 0, read: 1, triage: 1, write: 2, maintain: 3, admin: 3 };
const NEEDED: Record<RepoNeed, number> = { read: 1, write: 2, maintain: 3 };
const NEED_WORDS: Record<RepoNeed, string> = { read: 'read', write: 'write', maintain: 'maintain or admin' };

/**
 * How a caller's repository actions are decided: the role alone, a link to GitHub missing, GitHub's
 * answer for their GitHub account, or (never linked) only what GitHub shows anyone.
 */
export type RepoAccessPath =
  { kind: 'role_only' } | { kind: 'link_required' } | { kind: 'github'; githubUserId: number } | { kind: 'public_only' };

/** Who a decision is about: a caller (core/accounts/user.ts, Principal), or a listed user. */
export interface RepoAccessSubject {
  user: Pick<User, 'role' | 'service_account'>;
  github?: Pick<GitHubLink, 'id'>;
  /** The GitHub account last linked, kept after an unlink. */
  githubUserId?: number;
}

/**
 * ADMIN, and under `roles` everyone, go by role alone; so does a service account (only an ADMIN
 * makes one). Anyone else who was ever linked is checked against that GitHub account (an unlink
 * never widens access); one never linked reads only public repositories, or under
 * `github-required` nothing.
 */
export function repoAccessPath(mode: RepoAccessMode, who: RepoAccessSubject): RepoAccessPath {
  if (mode === 'roles' || who.user.role === 'ADMIN' || who.user.service_account) return { kind: 'role_only' };
  const githubUserId = who.github?.id ?? who.githubUserId;
  if (githubUserId !== undefined) return { kind: 'github', githubUserId };
  return mode === 'github-required' ? { kind: 'link_required' } : { kind: 'public_only' };
}

export const LINK_REQUIRED =
  'Link your GitHub account to act on repositories: this server decides repository access by GitHub permissions (SHIPGATE_REPO_ACCESS=github-required).';

export const PUBLIC_ONLY =
  'Your account has no GitHub link: on this server (SHIPGATE_REPO_ACCESS=github) it may only read public repositories. Link your GitHub account, or, for a CI key, ask an ADMIN to make the account a service account.';

/** What GitHub shows anyone: reading a public repository, nothing of any other. */
const publicPermission = (visibility: RepoVisibilityFact): RepoPermissionFact => (visibility === 'public' ? 'read' : 'none');

/**
 * The rule over GitHub's answer: a repository the user cannot read is 404 (its existence is not
 * revealed, and a repository where the App is not installed is not readable: fail closed); one
 * readable without the permission needed is 403 naming it.
 */
export function judgeRepoPermission(repoRoot: string, need: RepoNeed, permission: RepoPermissionFact, unlinked = false): void {
  if (LEVEL[permission] < NEEDED.read) throw new NotFoundError('Repository', repoRoot);
  if (LEVEL[permission] < NEEDED[need])
    throw new ForbiddenError(
      unlinked
        ? `This action needs the ${NEED_WORDS[need]} permission on ${repoRoot} on GitHub. ${PUBLIC_ONLY}`
        : `This action needs the ${NEED_WORDS[need]} permission on ${repoRoot} on GitHub; your GitHub permission there is ${permission}.`,
    );
}

export function mayRead(permission: RepoPermissionFact): boolean {
  return LEVEL[permission] >= NEEDED.read;
}

/** What routes call: the rule above, with the mode in force and GitHub's (cached) answers. */
export interface RepoAccess {
  /** The mode in force now. */
  mode(): Promise<RepoAccessMode>;
  /** Resolves when the caller may act on the repository with `need`; throws 404, 403 or 503 (UnavailableError) otherwise. */
  require(caller: Principal, repoRoot: string, need: RepoNeed): Promise<void>;
  /**
   * The repositories among `candidates()` the caller may read, for a list to show; undefined when
   * the role alone decides (nothing to hide, and `candidates` is not called). An unlinked user under
   * `github-required` reads none; one never linked under `github`, the public ones.
   */
  readableAmong(caller: Principal, candidates: () => Promise<readonly string[]>): Promise<string[] | undefined>;
}

/** Lookups a list starts at once, so a first listing over many repositories does not burst GitHub. */
const LIST_LOOKUP_CONCURRENCY = 8;

/** GitHub's answer on the path: the account's permission, or what anyone may do. */
function factOf(reader: RepoPermissionReader, repoRoot: string, path: { kind: 'github'; githubUserId: number } | { kind: 'public_only' }) {
  return path.kind === 'github' ? reader.permissionOf(repoRoot, path.githubUserId) : reader.visibilityOf(repoRoot).then(publicPermission);
}

/** GitHub's failure is never an allow and never a 500: 503 with a detail. */
async function asked(reader: RepoPermissionReader, repoRoot: string, path: Parameters<typeof factOf>[2]): Promise<RepoPermissionFact> {
  try {
    return await factOf(reader, repoRoot, path);
  } catch (error) {
    if (error instanceof ShipgateError && !(error instanceof UnavailableError)) throw error;
    throw new UnavailableError(`GitHub did not answer the permission lookup for ${repoRoot}; try again shortly.`);
  }
}

export function createRepoAccess(options: { mode(): Promise<RepoAccessMode>; reader: RepoPermissionReader }): RepoAccess {
  const { reader } = options;
  return {
    mode: options.mode,
    async require(caller, repoRoot, need) {
      const path = repoAccessPath(await options.mode(), caller);
      if (path.kind === 'role_only') return;
      if (path.kind === 'link_required') throw new ForbiddenError(LINK_REQUIRED);
      judgeRepoPermission(repoRoot, need, await asked(reader, repoRoot, path), path.kind === 'public_only');
    },
    async readableAmong(caller, candidates) {
      const path = repoAccessPath(await options.mode(), caller);
      if (path.kind === 'role_only') return undefined;
      if (path.kind === 'link_required') return [];
      const unique = [...new Set(await candidates())];
      const readable: string[] = [];
      for (let i = 0; i < unique.length; i += LIST_LOOKUP_CONCURRENCY) {
        const batch = unique.slice(i, i + LIST_LOOKUP_CONCURRENCY);
        const facts = await Promise.all(batch.map((repo) => asked(reader, repo, path)));
        batch.forEach((repo, j) => mayRead(facts[j]) && readable.push(repo));
      }
      return readable;
    },
  };
}
