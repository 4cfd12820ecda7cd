import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type Koa from 'koa';
import { z } from 'zod';
import { parse } from 'yaml';
import { ConflictError, ShipgateError, UnavailableError, ValidationError } from '../../core/errors.js';
import {
  buildAppManifest,
  githubWebUrl,
  installUrl,
  MANIFEST_STATE_TTL_MS,
  newAppUrl,
  STUDIO_GITHUB_PATH,
} from '../../core/github/app-manifest.js';
import { webhookSignatures } from '../../core/github/webhook-signatures.js';
import type { Deps } from '../deps.js';
import { defineRoute } from '../route.js';
import {
  appManifestCallbackQuerySchema,
  appManifestFormSchema,
  appManifestQuerySchema,
  appStatusSchema,
  registeredAppSchema,
} from '../schemas/github-app-schemas.js';

/** The repository's app.yml: the App's manifest, read once. */
const APP_YML = new URL('../../app.yml', import.meta.url);
let template: Record<string, unknown> | undefined;
const appYml = () => (template ??= parse(fs.readFileSync(APP_YML, 'utf8')) as Record<string, unknown>);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Refuses a second App: one is configured by the environment or registered already. */
async function refuseIfConfigured(deps: Deps): Promise<void> {
  deps.appCredentials.forget?.();
  const app = (await deps.appCredentials.current()) ?? (await deps.appRegistration.store.registered());
  if (!app) return;
  throw new ConflictError(
    'source' in app && app.source === 'environment'
      ? 'A GitHub App is already configured by environment variables (APP_ID with PRIVATE_KEY): they take precedence. Unset them to register one from the studio.'
      : `A GitHub App is already registered (${'slug' in app && app.slug ? app.slug : `id ${app.appId}`}). Delete it on GitHub and its row in the database to register another (docs/github-app.md).`,
  );
}

/** Why a browser sent back by GitHub could not finish, as the studio's GitHub page names it. */
function errorCode(error: unknown): string {
  if (error instanceof ConflictError) return 'registered';
  if (error instanceof ValidationError) return error.issues[0]?.loc.at(-1) === 'code' ? 'code' : 'state';
  return 'unavailable';
}

const wantsHtml = (ctx: Koa.Context) => (ctx.get('Accept') ?? '').includes('text/html');

/** The GitHub App's one-click registration (docs/github-app.md, "Register the App from the studio"). */
export const githubAppRoutes = [
  defineRoute({
    method: 'get',
    path: '/github/app',
    tags: ['github'],
    auth: ['ADMIN'],
    summary: 'The GitHub App in force (ADMIN)',
    description:
      'Whether an App is configured and from where: environment variables (APP_ID with PRIVATE_KEY) take precedence over the App ' +
      'registered from the studio, and how webhook deliveries are checked (`webhook_deliveries`). Never returns a secret.',
    responses: { 200: { description: 'The App in force, if any.', schema: appStatusSchema } },
    async handler({ deps }) {
      const web = githubWebUrl(deps.config.github);
      const [inForce, registered] = await Promise.all([deps.appCredentials.current(), deps.appRegistration.store.registered()]);
      const fromRegistration = inForce?.source === 'registration' ? registered : null;
      const slug = inForce?.slug ?? fromRegistration?.slug ?? null;
      return {
        body: {
          configured: inForce !== null,
          source: inForce?.source ?? null,
          app_id: inForce?.appId ?? null,
          slug,
          owner: fromRegistration?.ownerLogin ?? null,
          html_url: fromRegistration?.htmlUrl ?? null,
          install_url: slug ? installUrl(web, slug) : null,
          registered_at: registered?.registeredAt ?? null,
          registered: registered !== null,
          public_url: deps.config.configuredPublicUrl ?? null,
          github_url: web,
          webhook_deliveries: webhookSignatures(inForce, deps.config.github).deliveries,
        },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/github/app/manifest',
    tags: ['github'],
    auth: ['ADMIN'],
    summary: "The App's manifest, to register it on GitHub in one click (ADMIN)",
    description:
      "The repository's app.yml with every URL set from SHIPGATE_PUBLIC_URL: the webhook, the redirect back to " +
      '`/github/app/manifest/callback`, the OAuth callback of "Sign in with GitHub" and the setup URL (the studio\'s GitHub page). ' +
      "POST it as the form field `manifest` (JSON text), with `state`, to `post_url`: GitHub's new-App page for your account, or " +
      'for `organization`. The state is single-use and expires after 10 minutes; only its SHA-256 is stored.',
    query: appManifestQuerySchema,
    responses: { 200: { description: 'The form to post to GitHub.', schema: appManifestFormSchema } },
    errors: { 409: 'SHIPGATE_PUBLIC_URL is not set (GitHub must reach the webhook), or a GitHub App is already configured.' },
    async handler({ query, caller, deps }) {
      const publicUrl = deps.config.configuredPublicUrl;
      if (!publicUrl) {
        throw new ConflictError(
          'SHIPGATE_PUBLIC_URL is not set: GitHub must reach the webhook and send the browser back. Start shipgate with SHIPGATE_PUBLIC_URL=https://<this server>.',
        );
      }
      await refuseIfConfigured(deps);
      const state = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + MANIFEST_STATE_TTL_MS);
      await deps.appRegistration.store.createState(sha256(state), query.organization ?? null, caller.user.id, expiresAt);
      return {
        body: {
          post_url: newAppUrl(githubWebUrl(deps.config.github), query.organization),
          manifest: buildAppManifest(appYml(), publicUrl),
          state,
          expires_at: expiresAt.toISOString(),
        },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/github/app/manifest/callback',
    tags: ['github'],
    auth: 'public',
    summary: 'Where GitHub sends the browser back with the new App (no key)',
    description:
      'Takes the single-use `state` (an unknown, used or expired one is refused), refuses when an App is already configured, then ' +
      "exchanges `code` with GitHub (`POST /app-manifests/{code}/conversions`) and stores the App's id, slug and client id, and its " +
      'client secret, webhook secret and private key encrypted with SHIPGATE_SECRET_KEY. The App is in force at once on this ' +
      "replica and within seconds on every other, without a restart. A browser (Accept: text/html) is sent on (303) to the studio's " +
      'GitHub page, with `?error=` when refused; any other caller gets the App (200) or `{detail}` with its status.',
    query: appManifestCallbackQuerySchema,
    responses: {
      200: { description: 'Registered (a caller that does not ask for text/html).', schema: registeredAppSchema },
      303: {
        description: "Registered: on to the studio's GitHub page (to install the App).",
        headers: { Location: { description: "The studio's GitHub page.", schema: z.string().meta({ format: 'uri' }) } },
      },
    },
    errors: {
      409: 'A GitHub App is already configured (environment) or registered.',
      422: 'The state is unknown, used or expired, or GitHub does not know the code.',
      503: 'GitHub could not be reached or did not convert the code.',
    },
    async handler({ query, ctx, deps }) {
      const studio = `${deps.config.publicUrl}${STUDIO_GITHUB_PATH}`;
      try {
        const taken = await deps.appRegistration.store.takeState(sha256(query.state));
        if (!taken) {
          throw ValidationError.single(
            ['query', 'state'],
            'This registration link is unknown, already used or expired (10 minutes): start again from the studio.',
          );
        }
        await refuseIfConfigured(deps);
        const app = await deps.appRegistration.conversion.convert(query.code);
        if (!(await deps.appRegistration.store.save(app, taken.createdBy))) await refuseIfConfigured(deps);
        deps.appCredentials.forget?.();
        deps.logger.info({ event: 'github_app_registered', app_id: app.appId, slug: app.slug }, 'GitHub App registered from the studio');
        if (wantsHtml(ctx)) return { status: 303, headers: { Location: `${studio}?registered=${encodeURIComponent(app.slug)}` } };
        const web = githubWebUrl(deps.config.github);
        return { body: { app_id: app.appId, slug: app.slug, install_url: installUrl(web, app.slug), studio_url: studio } };
      } catch (error) {
        if (!(error instanceof ShipgateError) || !wantsHtml(ctx)) throw error;
        if (error instanceof UnavailableError)
          deps.logger.warn({ event: 'github_app_registration_failed', reason: error.message }, error.message);
        return { status: 303, headers: { Location: `${studio}?error=${errorCode(error)}` } };
      }
    },
  }),
];
