import type { NotFoundError } from '../errors.js';
import { ForbiddenError, NotFoundError as NotFound } from '../errors.js';
import type { RepoAccess, RepoNeed } from './repo-access.js';
import type { Principal } from './user.js';

/**
 * The check of a stored item bound to a repository (an execution, a held call, an evidence
 * document, a snapshot, an override): a caller who may not read the repository gets the item's
 * own 404, the answer an unknown id gets, so the item's existence is not revealed, neither by a
 * 403 nor by "Repository not found." (docs/api.md, "Repository access"). Only then is `need`
 * required, its 403 naming the permission lacking.
 */
export async function requireStoredItem(
  repoAccess: Pick<RepoAccess, 'require'>,
  caller: Principal,
  repoRoot: string,
  need: RepoNeed,
  notFound: NotFoundError,
): Promise<void> {
  try {
    await repoAccess.require(caller, repoRoot, 'read');
  } catch (error) {
    // 404: unreadable; 403: a link to GitHub is required to read anything (github-required).
    if (error instanceof NotFound || error instanceof ForbiddenError) throw notFound;
    throw error;
  }
  if (need !== 'read') await repoAccess.require(caller, repoRoot, need);
}
