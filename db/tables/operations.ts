// What the service keeps about itself: worker heartbeats and the signing keys.

export interface WorkerHeartbeatRow {
  worker_id: string;
  seen_at: Date;
}

export interface SigningKeyRow {
  keyid: string;
  /** `{kty, crv, x}` of the Ed25519 public key. */
  public_jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  created_at: Date;
  retired_at: Date | null;
}
