import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { FakeGitHubApp } from './fake-github-app-routes.js';
import { appJson, WEB } from './fake-github-shapes.js';
import { gitHubError, type GitHubRoute } from './fake-github-route.js';

/** An App GitHub created from a manifest, with the credentials the conversion hands over once. */
export interface FakeCreatedApp {
  id: number;
  slug: string;
  manifest: Record<string, unknown>;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** PEM (PKCS#1, as GitHub sends it). */
  pem: string;
}

/**
 * GitHub's side of the manifest flow: what its new-App page does once a manifest is posted and
 * the owner confirms (`confirm`: a new App and a one-time code, which GitHub puts in the redirect
 * to the manifest's `redirect_url`), and `POST /app-manifests/{code}/conversions`, which answers
 * the App's credentials once per code (an unknown or used code is 404, as GitHub answers).
 */
export class FakeGitHubManifests {
  /** Apps created so far, newest last. */
  created: FakeCreatedApp[] = [];
  private codes = new Map<string, FakeCreatedApp>();
  private nextId = 91000;

  constructor(private readonly app: FakeGitHubApp) {}

  /** The owner confirmed `manifest` on GitHub's new-App page: the code GitHub appends to `redirect_url`. */
  confirm(manifest: Record<string, unknown>): { code: string; app: FakeCreatedApp } {
    const id = this.nextId++;
    const created: FakeCreatedApp = {
      id,
      slug: `${String(manifest.name ?? 'app')
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, '-')}-${id}`,
      manifest,
      clientId: `Iv23li${randomBytes(7).toString('hex')}`,
      clientSecret: randomBytes(20).toString('hex'),
      webhookSecret: randomBytes(20).toString('hex'),
      pem: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    };
    const code = randomBytes(20).toString('hex');
    this.codes.set(code, created);
    this.created.push(created);
    return { code, app: created };
  }

  routes(apiBase: () => string): GitHubRoute[] {
    return [
      {
        method: 'POST',
        pattern: '/app-manifests/{code}/conversions',
        handle: (ctx) => {
          const created = this.codes.get(ctx.params.code);
          if (!created) return gitHubError(404, 'Not Found');
          this.codes.delete(ctx.params.code);
          // From now on GitHub's check runs are this App's (what `app_id` filters on).
          this.app.appId = created.id;
          const hook = (created.manifest.hook_attributes ?? {}) as { url?: string };
          return {
            status: 201,
            body: {
              ...appJson(apiBase(), created.id),
              slug: created.slug,
              name: String(created.manifest.name ?? created.slug),
              external_url: String(created.manifest.url ?? hook.url ?? ''),
              html_url: `${WEB}/apps/${created.slug}`,
              client_id: created.clientId,
              client_secret: created.clientSecret,
              webhook_secret: created.webhookSecret,
              pem: created.pem,
            },
          };
        },
      },
    ];
  }
}
