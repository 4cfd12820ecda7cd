/** One installation of the GitHub App, as an ADMIN sees it (docs/github-app.md, "Installations"). */
export interface AppInstallation {
  id: number;
  account: { login: string; type: string };
  /** `all` repositories of the account, or `selected` ones. */
  repository_selection: 'all' | 'selected';
  /** When GitHub suspended it (RFC 3339); null while active. A suspended installation gets no tokens. */
  suspended_at: string | null;
  /** `owner/repo` (lower case) of each repository it may access; empty while suspended (GitHub lists none). */
  repositories: string[];
  /** Why `repositories` could not be read (suspended); null when they were. */
  repositories_unavailable: string | null;
}

export type AppInstallationList =
  { configured: true; app_id: number; installations: AppInstallation[] } | { configured: false; reason: string };

/**
 * The App's installations, read from GitHub at call time as the App (`GET /app/installations`) and as
 * each installation (`GET /installation/repositories`). Throws UnavailableError when GitHub cannot
 * be read; answers `configured: false` when there are no App credentials in force.
 */
export interface AppInstallations {
  list(): Promise<AppInstallationList>;
}
