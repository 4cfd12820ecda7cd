import type { BlockerCode } from './blocker.js';

/** The shortest and longest an override may last (docs/release-gate.md, "Overrides"). */
export const MIN_OVERRIDE_SECONDS = 60;
export const MAX_OVERRIDE_SECONDS = 7 * 24 * 60 * 60;

/** One blocker an override lifts, by what makes a blocker distinct. */
export interface BlockerKey {
  code: BlockerCode;
  component: string;
}

/**
 * A recorded override of a commit's blockers (docs/release-gate.md, "Overrides"): it lifts exactly
 * `blockers` on exactly this commit until `expires_at`, unless revoked. Never deleted.
 */
export interface Override {
  id: string;
  repo_root: string;
  commit_sha: string;
  /** The blockers as the overrider named them (components or codes). */
  named: string[];
  /** What those names matched on the commit when the override was made: exactly what it lifts. */
  blockers: BlockerKey[];
  reason: string;
  /** SHA-256 (hex) of the reason's UTF-8 bytes: what the snapshot and the signed statement bind. */
  reason_digest: string;
  created_by: string;
  /** The overrider's GitHub login when the override was made (how check runs name them). */
  created_by_login: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
}

export type NewOverride = Omit<Override, 'id' | 'created_at' | 'revoked_at' | 'revoked_by'>;

/** What the decision reads of a commit's unrevoked overrides (expired ones too: expiry is judged against the clock). */
export type OverrideFact = Pick<Override, 'id' | 'blockers' | 'reason' | 'reason_digest' | 'created_by_login' | 'expires_at'>;

/** What a snapshot and a promotion's signed statement bind of an override that lifted something. */
export interface OverrideBinding {
  id: string;
  by: string;
  reason_digest: string;
  expires_at: string;
  blockers: BlockerKey[];
}

/** `active` until it expires or is revoked. */
export type OverrideState = 'active' | 'expired' | 'revoked';

export function overrideState(o: Pick<Override, 'expires_at' | 'revoked_at'>, now: Date): OverrideState {
  if (o.revoked_at !== null) return 'revoked';
  return Date.parse(o.expires_at) > now.getTime() ? 'active' : 'expired';
}
