/**
 * The GitHub App's manifest as GitHub's manifest flow takes it (docs/github-app.md, "Register the
 * App from the studio"): the repository's `app.yml` with every URL pointing at this shipgate.
 */

import { withoutTrailingSlashes } from '../without-trailing-slashes.js';

/** Where GitHub delivers webhooks (server/github-webhook-middleware.ts serves it; a test keeps them equal). */
export const MANIFEST_WEBHOOK_PATH = '/api/v1/releases/github-webhook';
/** Where GitHub sends the browser back with the manifest's code. */
export const MANIFEST_REDIRECT_PATH = '/api/v1/github/app/manifest/callback';
/** The App's OAuth callback ("Sign in with GitHub", docs/github-app.md). */
export const OAUTH_CALLBACK_PATH = '/api/v1/auth/github/callback';
/** The studio's GitHub page: GitHub sends the browser there after an installation. */
export const STUDIO_GITHUB_PATH = '/studio#/github';

/** How long a manifest form's `state` is good for. */
export const MANIFEST_STATE_TTL_MS = 10 * 60 * 1000;

/** GitHub's web origin: https://github.com, or GitHub Enterprise Server's under GHE_HOST. */
export function githubWebUrl(github: { gheHost?: string; gheProtocol?: 'http' | 'https' }): string {
  return github.gheHost ? `${github.gheProtocol ?? 'https'}://${github.gheHost}` : 'https://github.com';
}

/** GitHub's "new App" page the manifest form posts to: the user's, or an organisation's. */
export function newAppUrl(web: string, organization?: string | null): string {
  return organization ? `${web}/organizations/${encodeURIComponent(organization)}/settings/apps/new` : `${web}/settings/apps/new`;
}

/** An App's install link. */
export function installUrl(web: string, slug: string): string {
  return `${web}/apps/${encodeURIComponent(slug)}/installations/new`;
}

export interface AppManifest {
  name: string;
  url: string;
  hook_attributes: { url: string; active?: boolean };
  redirect_url: string;
  callback_urls: string[];
  setup_url: string;
  setup_on_update?: boolean;
  request_oauth_on_install?: boolean;
  description?: string;
  public?: boolean;
  default_permissions?: Record<string, string>;
  default_events?: string[];
}

/**
 * `template` (app.yml, parsed) with the URLs GitHub needs set from the public URL: the webhook,
 * the redirect back here, the OAuth callback and the setup URL. Everything else is app.yml's.
 */
export function buildAppManifest(template: Record<string, unknown>, publicUrl: string): AppManifest {
  const base = withoutTrailingSlashes(publicUrl);
  const hook = (template.hook_attributes ?? {}) as Record<string, unknown>;
  return {
    ...(template as Partial<AppManifest>),
    name: String(template.name ?? 'shipgate'),
    url: String(template.url ?? base),
    hook_attributes: { ...hook, url: `${base}${MANIFEST_WEBHOOK_PATH}`, active: true },
    redirect_url: `${base}${MANIFEST_REDIRECT_PATH}`,
    callback_urls: [`${base}${OAUTH_CALLBACK_PATH}`],
    setup_url: `${base}${STUDIO_GITHUB_PATH}`,
    setup_on_update: true,
  };
}
