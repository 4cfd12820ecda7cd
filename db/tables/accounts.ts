// Accounts and access: users, their API keys, the login throttle and per-key rate limits.

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string;
  active: boolean;
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
  email: string;
  failed_at: Date;
}

export interface RateLimitRow {
  bucket: string;
  window_start: Date;
  count: number;
}
