import type { Logger } from 'pino';
import { accountsLimitedToPublic } from '../core/accounts/accounts-limited-to-public.js';
import type { AccountStore } from '../core/accounts/account-store.js';
import type { RepoAccess } from '../core/accounts/repo-access.js';

/**
 * At start, one structured warning naming the accounts without a GitHub link that read public
 * repositories only (docs/operations.md, "Security"): an upgrade must not break a CI key silently.
 * A failure to ask is logged, never fatal.
 */
export async function warnAccountsLimitedToPublic(deps: { accounts: AccountStore; repoAccess: RepoAccess; logger: Logger }): Promise<void> {
  try {
    const limited = await accountsLimitedToPublic(deps.accounts, await deps.repoAccess.mode());
    if (limited.length === 0) return;
    deps.logger.warn(
      {
        event: 'repo_access.public_only_accounts',
        count: limited.length,
        accounts: limited.map((user) => ({ id: user.id, email: user.email, role: user.role })),
        fix: 'PATCH /api/v1/users/{id} {"service_account": true} as an ADMIN (for a CI key), or link the account to GitHub',
      },
      "accounts without a GitHub link read public repositories only (SHIPGATE_REPO_ACCESS=github): make a CI key's account a service account",
    );
  } catch (error) {
    deps.logger.warn(
      { event: 'repo_access.public_only_accounts_unknown', error: (error as Error).message },
      'could not list accounts without a GitHub link',
    );
  }
}
