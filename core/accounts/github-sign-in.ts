import type { Role } from './roles.js';
import type { GitHubLink, User } from './user.js';

/**
 * "Sign in with GitHub": the App's OAuth client, GitHub's web application flow with PKCE
 * (docs/github-app.md, "Sign in with GitHub"). Ports implemented in db/ and app/; the rules are in
 * `complete-github-sign-in.ts` and `github-org-admission.ts`.
 */

/** How long a sign-in's `state` (and the PKCE verifier kept with it) is good for. */
export const SIGN_IN_STATE_TTL_MS = 10 * 60 * 1000;
/** How long the one-time code the studio exchanges for its key is good for. */
export const SIGN_IN_CODE_TTL_MS = 60 * 1000;
/** The label of keys issued by a GitHub sign-in (api_keys.label). */
export const GITHUB_KEY_LABEL = 'github';

/** The GitHub user `GET /user` answered with the user's token (the token itself is dropped at once). */
export interface GitHubOAuthUser {
  id: number;
  login: string;
  name: string | null;
}

/** The OAuth client and where GitHub sends the browser back. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** GitHub's web flow: the code (with the PKCE verifier) for a user token, then `GET /user`. */
export interface GitHubOAuthExchange {
  /**
   * Throws ValidationError when GitHub refuses the code (bad, used or expired: `bad_verification_code`)
   * and UnavailableError when GitHub cannot be reached. The user's token is never returned.
   */
  userFor(client: OAuthClient, code: string, codeVerifier: string): Promise<GitHubOAuthUser>;
}

/**
 * Organisation membership as the App's installation on the organisation sees it:
 * `not_installed` when there is no App or no installation there (nobody can ask).
 */
export type OrgMembership = 'member' | 'not_member' | 'not_installed';

export interface OrgMembershipReader {
  membership(org: string, login: string): Promise<OrgMembership>;
}

/**
 * What a taken state carried: the PKCE verifier, who is linking (null for a sign-in), and the
 * SHA-256 (hex) of the nonce the starting browser holds in its cookie.
 */
export interface TakenSignInState {
  codeVerifier: string;
  linkUserId: string | null;
  browserNonceSha256: string;
}

/** A link the callback saw through: the GitHub account, waiting for the key of the user who started it. */
export interface PendingGitHubLink {
  userId: string;
  github: GitHubLink;
}

/** A user created by a first sign-in: no password (it signs in with GitHub only). */
export interface NewGitHubUser {
  email: string;
  name: string;
  /** The role asked for; the store applies roleForNewUser under its registration lock. */
  role: Role;
  /** Create only if it is the very first user (else ForbiddenError): closed registration's bootstrap. */
  onlyIfFirst: boolean;
}

/** Storage of identities, states and one-time codes (db/stores/accounts/postgres-github-sign-in-store.ts). */
export interface GitHubSignInStore {
  /** Records a state (its SHA-256) with the PKCE verifier, who is linking and the browser's nonce hash, good until `expiresAt`. */
  createState(stateSha256: string, state: TakenSignInState, expiresAt: Date): Promise<void>;
  /** Takes a state once: its contents when known and not expired, else null; it is gone either way. */
  takeState(stateSha256: string): Promise<TakenSignInState | null>;
  /** The user this GitHub account (by numeric id) is linked to, or null. */
  findLinkedUser(githubUserId: number): Promise<User | null>;
  /**
   * Links (or re-links) `userId` to the GitHub account, replacing the user's previous link and
   * refreshing the login. ConflictError when the account is linked to another user.
   */
  link(userId: string, github: GitHubLink): Promise<void>;
  /** Removes the user's link; false when there was none. */
  unlink(userId: string): Promise<boolean>;
  /** Creates the user linked to the GitHub account, under the registration lock. */
  createLinkedUser(user: NewGitHubUser, github: GitHubLink): Promise<User>;
  /**
   * Records a one-time code (its SHA-256) for the user, good until `expiresAt`: a sign-in's, or with
   * `link` a pending link of that GitHub account to the user.
   */
  createCode(codeSha256: string, userId: string, expiresAt: Date, link?: GitHubLink): Promise<void>;
  /** Takes a sign-in's one-time code once: its user id when known and not expired, else null; gone either way. */
  takeCode(codeSha256: string): Promise<string | null>;
  /** Takes a pending link's one-time code once: the link when known and not expired, else null; gone either way. */
  takeLinkCode(codeSha256: string): Promise<PendingGitHubLink | null>;
}

/** What the sign-in routes use (api/deps.ts). */
export interface GitHubSignInPorts {
  store: GitHubSignInStore;
  oauth: GitHubOAuthExchange;
  orgs: OrgMembershipReader;
}
