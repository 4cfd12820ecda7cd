/**
 * Repository and commit identifiers as GitHub spells them, normalised for storage: repositories
 * are compared case-insensitively (stored lower case), commit SHAs are 40 hex, stored lower case.
 */
const OWNER = /^[a-z0-9](?:[a-z0-9-]{0,38})$/i;
const NAME = /^[a-z0-9._-]{1,100}$/i;
const URL_FORM = /^https:\/\/github\.com\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/i;
const SHA = /^[0-9a-f]{40}$/i;

export function isRepoOwner(owner: string): boolean {
  return OWNER.test(owner);
}

export function isRepoName(name: string): boolean {
  return NAME.test(name) && name !== '.' && name !== '..';
}

/** A repository root's two parts, as GitHub's REST paths take them (`/repos/{owner}/{repo}`). */
// A type, not an interface: octokit's parameters take it only with an implicit index signature.
export type RepoParts = { owner: string; repo: string };

function ownerAndName(text: string): RepoParts | null {
  const parts = text.split('/');
  if (parts.length !== 2 || !isRepoOwner(parts[0]) || !isRepoName(parts[1])) return null;
  return { owner: parts[0], repo: parts[1] };
}

/**
 * `owner/repo` -> `{owner, repo}`: the one place a repository root is split. Roots reaching an
 * adapter were normalised on the way in, so anything else is a bug and throws.
 */
export function parseRepoRoot(repoRoot: string): RepoParts {
  const parts = ownerAndName(repoRoot);
  if (!parts) throw new Error(`Repository must be named owner/repo, got "${repoRoot}".`);
  return parts;
}

/** `owner/repo` or `https://github.com/owner/repo` -> `owner/repo` in lower case; null otherwise. */
export function normalizeRepoRoot(input: string): string | null {
  const trimmed = input.trim();
  const match = URL_FORM.exec(trimmed);
  const parts = ownerAndName(match ? `${match[1]}/${match[2]}` : trimmed);
  return parts && `${parts.owner}/${parts.repo}`.toLowerCase();
}

export function isCommitSha(input: string): boolean {
  return SHA.test(input);
}

/** A 40-hex SHA in lower case; null for anything else (short SHAs included). */
export function normalizeCommitSha(input: string): string | null {
  const trimmed = input.trim();
  return isCommitSha(trimmed) ? trimmed.toLowerCase() : null;
}

/** `refs/heads/main` -> `main`; `HEAD` and plain branch names as they are. */
export function normalizeRefName(ref: string): string {
  return ref.trim().replace(/^refs\/heads\//, '');
}

/**
 * A branch name git would accept (`git check-ref-format --branch`): no control or space
 * characters, none of `~^:?*[` or a backslash, no `..`, `@{` or `//`, not `@`, neither starting nor ending with
 * `/` or `.`, not ending `.lock`. Anything else names no branch, so it cannot be looked up.
 */
export function isBranchName(name: string): boolean {
  if (name === '' || name === '@' || name.length > 255) return false;
  if (/[\p{Cc} ~^:?*[\\]|\.\.|@\{|\/\//u.test(name)) return false;
  return !/^[/.]|[/.]$|\.lock$/.test(name) && !name.includes('/.');
}
