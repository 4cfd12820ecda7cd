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

/** `owner/repo` or `https://github.com/owner/repo` -> `owner/repo` in lower case; null otherwise. */
export function normalizeRepoRoot(input: string): string | null {
  const trimmed = input.trim();
  const match = URL_FORM.exec(trimmed);
  const [owner, name] = match ? [match[1], match[2]] : trimmed.split('/').length === 2 ? trimmed.split('/') : [];
  if (!owner || !name || !isRepoOwner(owner) || !isRepoName(name)) return null;
  return `${owner}/${name}`.toLowerCase();
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
