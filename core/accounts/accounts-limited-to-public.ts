import type { AccountStore } from './account-store.js';
import { repoAccessPath, type RepoAccessMode } from './repo-access.js';
import type { User } from './user.js';

/** Accounts named at most, so the start-up line stays one line. */
export const LIMITED_ACCOUNTS_NAMED = 200;

/**
 * The active accounts that read only public repositories under `github` because they were never
 * linked to GitHub and are not service accounts: before migration 040 their role alone decided,
 * so a CI key of one of them now gets 404 on its private repositories (docs/operations.md,
 * "Security"). None under `roles` (nothing changed) or `github-required` (they had no access before).
 */
export async function accountsLimitedToPublic(
  accounts: Pick<AccountStore, 'activeUsersNeverLinked'>,
  mode: RepoAccessMode,
): Promise<User[]> {
  if (mode !== 'github') return [];
  const neverLinked = await accounts.activeUsersNeverLinked(LIMITED_ACCOUNTS_NAMED);
  return neverLinked.filter((user) => repoAccessPath(mode, { user }).kind === 'public_only');
}
