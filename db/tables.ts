/** Row types: the one place that says what each table holds. */
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

export interface WorkerHeartbeatRow {
  worker_id: string;
  seen_at: Date;
}

export interface PolicyRow {
  name: string;
  version: number;
  /** The Policy as JSON, version included. */
  body: unknown;
  digest: string;
  created_by: string | null;
  created_at: Date;
}

export interface SigningKeyRow {
  keyid: string;
  /** `{kty, crv, x}` of the Ed25519 public key. */
  public_jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  created_at: Date;
  retired_at: Date | null;
}

export interface Tables {
  users: UserRow;
  api_keys: ApiKeyRow;
  login_failures: LoginFailureRow;
  rate_limits: RateLimitRow;
  worker_heartbeats: WorkerHeartbeatRow;
  policies: PolicyRow;
  signing_keys: SigningKeyRow;
}
