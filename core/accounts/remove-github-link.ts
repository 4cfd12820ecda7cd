import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { AccountStore } from './account-store.js';
import type { GitHubSignInStore } from './github-sign-in.js';
import type { RepoAccessMode } from './repo-access.js';
import type { Principal } from './user.js';

export const ONLY_ADMIN_UNLINKS =
  'Only an ADMIN can remove a GitHub link while repository access follows GitHub (SHIPGATE_REPO_ACCESS=github or github-required); ' +
  'removing it would not change your repository access, which stays checked against that GitHub account. Ask an ADMIN.';

const LOCKOUT = 'This account has no password (it was created by a GitHub sign-in): unlinking GitHub would lock it out.';

/**
 * Removes `userId`'s GitHub link (docs/api.md, "Repository access"). While GitHub decides
 * repository access, only an ADMIN may (a user's own unlink is 403): the account stays checked
 * against the GitHub account last linked anyway (migration 040), and an unlink someone could do to
 * themselves is exactly what this rule is against. Under `roles` a user may still unlink
 * themselves, as before. An account without a password keeps its link (409: it would be locked out).
 */
export async function removeGitHubLink(
  ports: { accounts: Pick<AccountStore, 'findUser' | 'findCredentials'>; store: Pick<GitHubSignInStore, 'unlink'> },
  mode: RepoAccessMode,
  actor: Principal,
  userId: string,
): Promise<void> {
  const own = actor.user.id === userId;
  if (actor.user.role !== 'ADMIN' && !(own && mode === 'roles')) throw new ForbiddenError(ONLY_ADMIN_UNLINKS);
  const user = own ? actor.user : await ports.accounts.findUser(userId);
  if (!user) throw new NotFoundError('User', userId);
  const credentials = await ports.accounts.findCredentials(user.email);
  if (credentials && !credentials.passwordHash) throw new ConflictError(LOCKOUT);
  if (!(await ports.store.unlink(userId))) throw new NotFoundError('Linked GitHub account');
}
