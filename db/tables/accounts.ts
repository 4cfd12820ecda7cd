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
}

/** A user's linked GitHub account (migration 030). */
export interface GitHubIdentityRow {
  user_id: string;
  /** bigint: pg returns it as a string. */
  github_user_id: string;
  login: string;
  linked_at: Date;
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
  email: string;
  failed_at: Date;
}

export interface RateLimitRow {
  bucket: string;
  window_start: Date;
  count: number;
}
