import type { Knex } from 'knex';
import type { GitHubSignInStore } from '../../../core/accounts/github-sign-in.js';
import { registrationClosedForGitHub } from '../../../core/accounts/github-org-admission.js';
import { roleForNewUser } from '../../../core/accounts/role-for-new-user.js';
import type { GitHubLink } from '../../../core/accounts/user.js';
import { sendSql } from '../../send-sql.js';
import type { UserRow } from '../../tables.js';
import { FIRST_USER_LOCK, toUser } from './postgres-account-store.js';

/** A state's or a code's row, taken (deleted) with whether it was still good. */
type Taken<T> = T & { live: boolean };

/**
 * "Sign in with GitHub" on PostgreSQL (migrations 030, 032 and 042): identities keyed by GitHub's user
 * id, and the single-use states (with their browser nonce's SHA-256) and one-time codes (a sign-in's,
 * or a pending link's), each stored as its SHA-256 and deleted when taken (expired rows are swept
 * when new ones are written).
 */
export function createGitHubSignInStore(db: Knex): GitHubSignInStore {
  const link = (trx: Knex, userId: string, github: GitHubLink) =>
    trx('github_identities')
      .insert({ user_id: userId, github_user_id: String(github.id), login: github.login })
      .onConflict('user_id')
      .merge({
        github_user_id: String(github.id),
        login: github.login,
        // A re-link to another GitHub account is a new link; a sign-in only refreshes the login.
        linked_at: trx.raw(
          'CASE WHEN github_identities.github_user_id = excluded.github_user_id THEN github_identities.linked_at ELSE now() END',
        ),
      });

  return {
    async createState(stateSha256, state, expiresAt) {
      await db('github_sign_in_states').where('expires_at', '<', db.fn.now()).delete();
      await db('github_sign_in_states').insert({
        state_sha256: stateSha256,
        code_verifier: state.codeVerifier,
        link_user_id: state.linkUserId,
        browser_nonce_sha256: state.browserNonceSha256,
        expires_at: expiresAt,
      });
    },
    async takeState(stateSha256) {
      const [row] = await sendSql<Taken<{ code_verifier: string; link_user_id: string | null; browser_nonce_sha256: string }>>(
        db,
        `DELETE FROM github_sign_in_states WHERE state_sha256 = $1
        RETURNING code_verifier, link_user_id, browser_nonce_sha256, expires_at > now() AS live`,
        [stateSha256],
      );
      return row?.live
        ? { codeVerifier: row.code_verifier, linkUserId: row.link_user_id, browserNonceSha256: row.browser_nonce_sha256 }
        : null;
    },
    async findLinkedUser(githubUserId) {
      const row = await db<UserRow>('users')
        .join('github_identities', 'github_identities.user_id', 'users.id')
        .where('github_identities.github_user_id', String(githubUserId))
        .first('users.*');
      return row ? toUser(row) : null;
    },
    async link(userId, github) {
      await link(db, userId, github);
    },
    async unlink(userId) {
      return (await db('github_identities').where({ user_id: userId }).delete()) > 0;
    },
    async createLinkedUser(user, github) {
      return db.transaction(async (trx) => {
        // The same lock as every registration (postgres-account-store.ts): exactly one first user, the ADMIN.
        await sendSql(trx, 'SELECT pg_advisory_xact_lock($1)', [FIRST_USER_LOCK]);
        const existing = await trx('users').first(trx.raw('1 AS one'));
        if (existing && user.onlyIfFirst) throw registrationClosedForGitHub();
        const [row] = await trx<UserRow>('users')
          .insert({ email: user.email, name: user.name, password_hash: null, role: roleForNewUser(user.role, Boolean(existing)) })
          .returning('*');
        await link(trx, row.id, github);
        return toUser(row);
      });
    },
    async createCode(codeSha256, userId, expiresAt, pendingLink) {
      await db('github_sign_in_codes').where('expires_at', '<', db.fn.now()).delete();
      await db('github_sign_in_codes').insert({
        code_sha256: codeSha256,
        user_id: userId,
        link_github_user_id: pendingLink ? String(pendingLink.id) : null,
        link_github_login: pendingLink?.login ?? null,
        expires_at: expiresAt,
      });
    },
    async takeCode(codeSha256) {
      // A sign-in's code only: a pending link's code never becomes a key.
      const [row] = await sendSql<Taken<{ user_id: string }>>(
        db,
        `DELETE FROM github_sign_in_codes WHERE code_sha256 = $1 AND link_github_user_id IS NULL
        RETURNING user_id, expires_at > now() AS live`,
        [codeSha256],
      );
      return row?.live ? row.user_id : null;
    },
    async takeLinkCode(codeSha256) {
      const [row] = await sendSql<Taken<{ user_id: string; link_github_user_id: string; link_github_login: string }>>(
        db,
        `DELETE FROM github_sign_in_codes WHERE code_sha256 = $1 AND link_github_user_id IS NOT NULL
        RETURNING user_id, link_github_user_id, link_github_login, expires_at > now() AS live`,
        [codeSha256],
      );
      return row?.live ? { userId: row.user_id, github: { id: Number(row.link_github_user_id), login: row.link_github_login } } : null;
    },
  };
}
