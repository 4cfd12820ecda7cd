import type { Page, PageRequest } from '../pagination.js';
import type { LoginFailureCounts } from './login-throttle.js';
import type { Role } from './roles.js';
import type { GitHubLink, User } from './user.js';

export interface NewUser {
  email: string;
  name: string;
  passwordHash: string;
  /** The role asked for; under its registration lock the store applies roleForNewUser (the first user becomes ADMIN). */
  role: Role;
  /** Create the user only if it is the very first one (else ForbiddenError): closed registration's bootstrap. */
  onlyIfFirst?: boolean;
}

/** Storage port for users, their keys and login throttling. Implemented in db/. */
export interface AccountStore {
  /** Creates the user with its first key. Throws ConflictError on a duplicate e-mail. */
  createUser(user: NewUser, keyHash: string): Promise<User>;
  /** `passwordHash` is null for an account created by "Sign in with GitHub" (it has no password). */
  findCredentials(email: string): Promise<{ user: User; passwordHash: string | null } | null>;
  /**
   * The live key's user, the GitHub account that user linked (null when none), and the GitHub
   * account (numeric id) last linked, kept after an unlink (null when never linked).
   */
  findKeyHolder(keyHash: string): Promise<{ user: User; github: GitHubLink | null; githubUserId: number | null } | null>;
  findUser(id: string): Promise<User | null>;
  /**
   * The display names of the given user ids (deactivated users included; unknown ids are absent), so
   * a response that names a person carries the name beside the id (docs/api.md, "People by name").
   */
  displayNames(ids: readonly (string | null)[]): Promise<Map<string, string>>;
  addKey(userId: string, keyHash: string, label: string): Promise<void>;
  /** Swaps the calling key for a new one in one transaction. */
  replaceKey(oldKeyHash: string, newKeyHash: string): Promise<void>;
  /** Revokes one key (sign out); false when it was not live. */
  revokeKey(keyHash: string): Promise<boolean>;
  listUsers(page: PageRequest): Promise<Page<User>>;
  updateUser(id: string, patch: { role?: Role; active?: boolean; service_account?: boolean }): Promise<User | null>;
  /** The GitHub account (numeric id) each of these users was last linked to; users never linked are absent. */
  githubUserIds(ids: readonly string[]): Promise<Map<string, number>>;
  /** Active users never linked to GitHub, oldest first, at most `limit`. */
  activeUsersNeverLinked(limit: number): Promise<User[]>;
  /**
   * The login throttle's step before a password is checked, atomic per client so that parallel
   * attempts cannot all pass one count: reads the client's failures of the last `windowSeconds`,
   * asks `retryAfterOf` how long it must wait and, when it need not, records this attempt as a
   * failure (clearLoginFailures forgets it when the password was right). Returns the wait in
   * seconds, 0 when the attempt was recorded and may go on.
   */
  beginLoginAttempt(
    client: string,
    email: string,
    windowSeconds: number,
    retryAfterOf: (counts: LoginFailureCounts) => number,
  ): Promise<number>;
  /** After a right password: this client's failures on this e-mail are forgotten. */
  clearLoginFailures(client: string, email: string): Promise<void>;
}
