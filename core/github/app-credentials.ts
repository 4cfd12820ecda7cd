/**
 * The GitHub App shipgate acts as: from the environment (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET,
 * GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET), which wins when set, or registered from the studio
 * through GitHub's manifest flow (docs/github-app.md, "Register the App").
 */
export interface GitHubAppCredentials {
  source: 'environment' | 'registration';
  appId: string;
  /** The App's URL name (its install link is `<web>/apps/<slug>/installations/new`); null when unknown. */
  slug: string | null;
  /** PEM text. */
  privateKey: string;
  webhookSecret: string | null;
  /** The App's OAuth client, used by "Sign in with GitHub"; null when not configured. */
  clientId: string | null;
  clientSecret: string | null;
}

/** The App's credentials in force now: a registration made on another replica shows within seconds. */
export interface GitHubAppCredentialsSource {
  current(): Promise<GitHubAppCredentials | null>;
  /** The next current() reads the source again (after this replica stored a registration). */
  forget?(): void;
}
