/** A permission level of an installation token shipgate mints (GitHub's `read` or `write`). */
export type PermissionLevel = 'read' | 'write';

/** An installation token limited to one repository and some permissions, and when GitHub expires it. */
export interface ScopedInstallationToken {
  token: string;
  /** GitHub's `expires_at` (an hour after minting). */
  expires_at: string;
}

/** A token, or why none could be minted (in words an agent and an ADMIN can act on; never a credential). */
export type MintedToken = { token: ScopedInstallationToken } | { refused: string };

/**
 * Mints the GitHub App's installation tokens narrowed to one repository and to named permissions
 * (`POST /app/installations/{installation_id}/access_tokens` with `repositories` and
 * `permissions`, as the App). Implemented in app/ with the App's credentials in force at each call.
 */
export interface InstallationTokenMinter {
  /** Why no token can be minted at all (no App credentials in force), else null. */
  whyNot(): Promise<string | null>;
  /** A token for `repoRoot` (`owner/repo`) with exactly `permissions`; refused when the App is not installed there or GitHub refuses. */
  mint(repoRoot: string, permissions: Readonly<Record<string, PermissionLevel>>): Promise<MintedToken>;
}
