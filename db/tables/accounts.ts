// Accounts and access: users, their API keys, the login throttle and per-key rate limits.

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  /** NULL for a user created by "Sign in with GitHub" (migration 032): no password. */
  password_hash: string | null;
  active: boolean;
  created_at: Date;
  /** Judged by role alone without a GitHub link, set by an ADMIN only (migration 040). */
  service_account: boolean;
  /** bigint as a string: the GitHub account repository access is checked against, kept after an unlink (migration 040). */
  repo_access_github_id: string | null;
}

/** A user's linked GitHub account (migration 030). */
export interface GitHubIdentityRow {
  user_id: string;
  /** bigint: pg returns it as a string. */
  github_user_id: string;
  login: string;
  linked_at: Date;
}

/** A "Sign in with GitHub" authorization in flight (migration 032): single-use, deleted when taken. */
export interface GitHubSignInStateRow {
  state_sha256: string;
  /** PKCE verifier; the browser only ever sees its S256 challenge. */
  code_verifier: string;
  /** Who is linking GitHub to their account; null for a sign-in. */
  link_user_id: string | null;
  /** SHA-256 of the nonce in the starting browser's cookie (migration 042): the callback must bring it. */
  browser_nonce_sha256: string;
  expires_at: Date;
  created_at: Date;
}

/** A one-time code the studio trades for its key (migration 032): single-use, 1 minute. */
export interface GitHubSignInCodeRow {
  code_sha256: string;
  user_id: string;
  /** A pending link (migration 042): the GitHub account `user_id` finishes linking with its key; null for a sign-in code. */
  link_github_user_id: string | null;
  link_github_login: string | null;
  expires_at: Date;
  created_at: Date;
}

export interface ApiKeyRow {
  id: string;
  user_id: string;
  key_hash: string;
  label: string;
  created_at: Date;
  revoked_at: Date | null;
}

export interface LoginFailureRow {
  id: number;
  /** Who failed (loginClientOf: an IPv4 address or an IPv6 /64); null on rows from before migration 036. */
  client: string | null;
  email: string;
  failed_at: Date;
}

export interface RateLimitRow {
  bucket: string;
  window_start: Date;
  count: number;
}
