import type { Knex } from 'knex';
import { sendSql } from '../../send-sql.js';
import type { AccountStore, NewUser } from '../../../core/accounts/account-store.js';
import { REGISTRATION_CLOSED } from '../../../core/accounts/register-user.js';
import type { Role } from '../../../core/accounts/roles.js';
import { roleForNewUser } from '../../../core/accounts/role-for-new-user.js';
import type { User } from '../../../core/accounts/user.js';
import { ConflictError, ForbiddenError } from '../../../core/errors.js';
import type { PageRequest } from '../../../core/pagination.js';
import { keysetPage } from '../../keyset-page.js';
import { displayNames } from './display-names.js';
import type { UserRow } from '../../tables.js';

/** Serialises registrations (also GitHub sign-ins that create a user: postgres-github-sign-in-store.ts). */
export const FIRST_USER_LOCK = 7_140_001;

// Every authenticated request runs it: named, so PostgreSQL parses and plans it once per connection.
const FIND_USER_BY_KEY_HASH = {
  name: 'account_user_by_key_hash',
  text:
    'SELECT u.*, g.github_user_id, g.login AS github_login FROM api_keys k JOIN users u ON u.id = k.user_id ' +
    'LEFT JOIN github_identities g ON g.user_id = u.id WHERE k.key_hash = $1 AND k.revoked_at IS NULL LIMIT 1',
};

/** Serialises one login client's attempts (with hashtext(client) as the second key). */
const LOGIN_ATTEMPT_LOCK = 7_140_002;

/**
 * A client's failed logins of the window, on one e-mail and on all, each with the seconds since
 * the newest (clock_timestamp, not the transaction's start: an attempt may have waited for the lock).
 */
const LOGIN_FAILURE_COUNTS = `
  SELECT count(*) FILTER (WHERE email = $2)::int AS account_count,
         coalesce(extract(epoch FROM clock_timestamp() - max(failed_at) FILTER (WHERE email = $2)), 0)::float AS account_since,
         count(*)::int AS client_count,
         coalesce(extract(epoch FROM clock_timestamp() - max(failed_at)), 0)::float AS client_since
  FROM login_failures
  WHERE client = $1 AND failed_at > clock_timestamp() - make_interval(secs => $3::double precision)`;

interface LoginFailureCountsRow {
  account_count: number;
  account_since: number;
  client_count: number;
  client_since: number;
}

/** The key lookup's row: the user and, when linked, the GitHub account (bigint id as a string). */
type KeyHolderRow = UserRow & { github_user_id: string | null; github_login: string | null };

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    active: row.active,
    created_at: row.created_at.toISOString(),
    service_account: row.service_account,
  };
}

/** Marks a live key revoked; the row's owner, or undefined when the key was not live. */
async function revokeKeyRow(db: Knex, keyHash: string): Promise<{ user_id: string } | undefined> {
  const [row] = await db('api_keys')
    .where({ key_hash: keyHash })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() })
    .returning(['user_id']);
  return row;
}

export function createAccountStore(db: Knex): AccountStore {
  return {
    async createUser(user: NewUser, keyHash: string) {
      return db.transaction(async (trx) => {
        // Serialise registrations so exactly one user can ever be the first (and ADMIN).
        await sendSql(trx, 'SELECT pg_advisory_xact_lock($1)', [FIRST_USER_LOCK]);
        const existing = await trx('users').first(trx.raw('1 AS one'));
        if (existing && user.onlyIfFirst) throw new ForbiddenError(REGISTRATION_CLOSED);
        const [row] = await trx<UserRow>('users')
          .insert({
            email: user.email,
            name: user.name,
            password_hash: user.passwordHash,
            role: roleForNewUser(user.role, Boolean(existing)),
          })
          .returning('*');
        await trx('api_keys').insert({ user_id: row.id, key_hash: keyHash, label: 'register' });
        return toUser(row);
      });
    },
    async findCredentials(email) {
      const row = await db<UserRow>('users').where({ email }).first();
      return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
    },
    async findKeyHolder(keyHash) {
      const [row] = await sendSql<KeyHolderRow>(db, FIND_USER_BY_KEY_HASH, [keyHash]);
      if (!row) return null;
      return {
        user: toUser(row),
        github: row.github_user_id ? { id: Number(row.github_user_id), login: row.github_login! } : null,
        githubUserId: row.repo_access_github_id === null ? null : Number(row.repo_access_github_id),
      };
    },
    async findUser(id) {
      const row = await db<UserRow>('users').where({ id }).first();
      return row ? toUser(row) : null;
    },
    displayNames: (ids) => displayNames(db, ids),
    async addKey(userId, keyHash, label) {
      await db('api_keys').insert({ user_id: userId, key_hash: keyHash, label });
    },
    async replaceKey(oldKeyHash, newKeyHash) {
      await db.transaction(async (trx) => {
        const old = await revokeKeyRow(trx, oldKeyHash);
        if (!old) throw new ConflictError('The key was already rotated.');
        await trx('api_keys').insert({ user_id: old.user_id, key_hash: newKeyHash, label: 'rotate' });
      });
    },
    async revokeKey(keyHash) {
      return (await revokeKeyRow(db, keyHash)) !== undefined;
    },
    listUsers(page: PageRequest) {
      return keysetPage(db<UserRow>('users').select('*'), page, toUser);
    },
    async updateUser(id, patch) {
      if (Object.values(patch).every((value) => value === undefined)) return this.findUser(id);
      const [row] = await db<UserRow>('users').where({ id }).update(patch).returning('*');
      return row ? toUser(row) : null;
    },
    async githubUserIds(ids) {
      const rows = await db<UserRow>('users')
        .whereIn('id', [...ids])
        .whereNotNull('repo_access_github_id')
        .select('id', 'repo_access_github_id');
      return new Map(rows.map((row) => [row.id, Number(row.repo_access_github_id)]));
    },
    async activeUsersNeverLinked(limit) {
      const rows = await db<UserRow>('users').where({ active: true }).whereNull('repo_access_github_id').orderBy('created_at').limit(limit);
      return rows.map(toUser);
    },
    async beginLoginAttempt(client, email, windowSeconds, retryAfterOf) {
      return db.transaction(async (trx) => {
        // One client's attempts queue here, so each one counts the failures of those before it.
        await sendSql(trx, 'SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOGIN_ATTEMPT_LOCK, client]);
        const [row] = await sendSql<LoginFailureCountsRow>(trx, LOGIN_FAILURE_COUNTS, [client, email, windowSeconds]);
        const retryAfter = retryAfterOf({
          account: { count: row.account_count, sinceLastSeconds: row.account_since },
          client: { count: row.client_count, sinceLastSeconds: row.client_since },
        });
        if (retryAfter === 0)
          await sendSql(trx, 'INSERT INTO login_failures (client, email, failed_at) VALUES ($1, $2, clock_timestamp())', [client, email]);
        return retryAfter;
      });
    },
    async clearLoginFailures(client, email) {
      await db('login_failures').where({ client, email }).delete();
    },
  };
}
