import type { ConvertedApp, ManifestConversion } from '../core/github/app-registration.js';
import { UnavailableError, ValidationError } from '../core/errors.js';
import { GITHUB_FETCH_HEADERS } from './create-probot.js';

interface ConversionAnswer {
  id: number;
  slug?: string;
  owner?: { login?: string } | null;
  html_url?: string;
  client_id: string;
  client_secret: string;
  webhook_secret: string | null;
  pem: string;
}

/**
 * `POST /app-manifests/{code}/conversions` (GitHub REST, unauthenticated: the code is the
 * credential). GitHub answers 201 with the new App's id, slug, client id and secret, webhook
 * secret and private key (`pem`); an unknown, used or expired code is a 404 or 422.
 */
export function githubManifestConversion(baseUrl: string): ManifestConversion {
  return {
    async convert(code) {
      let res: Response;
      try {
        res = await fetch(`${baseUrl}/app-manifests/${encodeURIComponent(code)}/conversions`, {
          method: 'POST',
          headers: GITHUB_FETCH_HEADERS,
          signal: AbortSignal.timeout(20_000),
        });
      } catch (error) {
        throw new UnavailableError(`GitHub could not be reached to finish the App's registration: ${(error as Error).message}`);
      }
      if (res.status === 404 || res.status === 422) {
        throw ValidationError.single(
          ['query', 'code'],
          'GitHub does not know this code: it is valid once, for an hour. Register the App again from the studio.',
        );
      }
      if (res.status !== 201) throw new UnavailableError(`GitHub answered ${res.status} to the App's registration; try again.`);
      const app = (await res.json()) as ConversionAnswer;
      if (!app.webhook_secret)
        throw new UnavailableError('GitHub created the App without a webhook secret; delete it on GitHub and register again.');
      return {
        appId: String(app.id),
        slug: app.slug ?? String(app.id),
        ownerLogin: app.owner?.login ?? null,
        htmlUrl: app.html_url ?? null,
        clientId: app.client_id,
        clientSecret: app.client_secret,
        webhookSecret: app.webhook_secret,
        privateKey: app.pem,
      } satisfies ConvertedApp;
    },
  };
}
