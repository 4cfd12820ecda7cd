import { z } from 'zod';

/** A GitHub organisation's login (1-39 letters, digits or single hyphens). */
const organizationSchema = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, 'A GitHub organisation login: letters, digits and -, at most 39 characters.')
  .meta({ example: 'acme' });

export const appManifestQuerySchema = z.strictObject({
  organization: organizationSchema
    .optional()
    .meta({ description: 'Register the App under this organisation (you must own it); else under your own GitHub account.' }),
});

export const appManifestCallbackQuerySchema = z.object({
  code: z.string().min(1).max(200).meta({ description: "GitHub's one-time code for the new App (valid for an hour)." }),
  state: z.string().min(1).max(200).meta({ description: 'The single-use state of the manifest form.' }),
});

/** GitHub's App manifest (https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest). */
export const appManifestSchema = z
  .strictObject({
    name: z.string(),
    description: z.string().optional(),
    url: z.string(),
    public: z.boolean().optional(),
    hook_attributes: z.strictObject({ url: z.string(), active: z.boolean().optional() }),
    redirect_url: z.string(),
    callback_urls: z.array(z.string()),
    setup_url: z.string(),
    setup_on_update: z.boolean().optional(),
    request_oauth_on_install: z.boolean().optional(),
    default_permissions: z.record(z.string(), z.string()).optional(),
    default_events: z.array(z.string()).optional(),
  })
  .meta({ id: 'GitHubAppManifest', description: "app.yml with this shipgate's URLs (SHIPGATE_PUBLIC_URL)." });

export const appManifestFormSchema = z
  .strictObject({
    post_url: z.string().meta({ description: "GitHub's new-App page to POST the form to (a user's or an organisation's)." }),
    manifest: appManifestSchema,
    state: z.string().meta({ description: 'Single-use, for 10 minutes: the form field `state` (GitHub hands it back to the callback).' }),
    expires_at: z.string().meta({ format: 'date-time' }),
  })
  .meta({
    id: 'GitHubAppManifestForm',
    description: 'POST a form to `post_url` with the fields `manifest` (the manifest as JSON text) and `state`.',
  });

/** How the webhook treats deliveries now (core/github/webhook-signatures.ts); /readyz says it too. */
export const webhookDeliveriesSchema = z.enum(['verified', 'unsigned', 'refused']).meta({
  id: 'WebhookDeliveries',
  description:
    "`verified`: a webhook secret is known (WEBHOOK_SECRET or the registered App's) and every delivery must carry its valid " +
    'X-Hub-Signature-256. `refused`: no secret is known, so every delivery is refused (503). `unsigned`: no secret is known and ' +
    'SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true, so deliveries are accepted WITHOUT a signature check (anyone who reaches the ' +
    'webhook can forge them; for local experiments only).',
});

export const appStatusSchema = z
  .strictObject({
    configured: z.boolean(),
    source: z
      .enum(['environment', 'registration'])
      .nullable()
      .meta({ description: 'Where the credentials in force come from: environment variables (APP_ID, ...) take precedence.' }),
    app_id: z.string().nullable(),
    slug: z.string().nullable(),
    owner: z.string().nullable().meta({ description: 'The account the registered App belongs to.' }),
    html_url: z.string().nullable().meta({ description: "The registered App's page on GitHub." }),
    install_url: z.string().nullable().meta({ description: 'Where to install the App (known when its slug is).' }),
    registered_at: z.string().nullable().meta({ format: 'date-time' }),
    registered: z
      .boolean()
      .meta({ description: 'An App was registered from the studio (it is in force unless the environment names one).' }),
    public_url: z.string().nullable().meta({ description: 'SHIPGATE_PUBLIC_URL; registration needs it.' }),
    github_url: z.string().meta({ description: 'GitHub (or GitHub Enterprise Server) on the web.' }),
    webhook_deliveries: webhookDeliveriesSchema,
  })
  .meta({ id: 'GitHubAppStatus', description: 'The GitHub App in force, for the studio: never a secret.' });

export const registeredAppSchema = z
  .strictObject({
    app_id: z.string(),
    slug: z.string(),
    install_url: z.string().meta({ description: 'Where to install the App on your repositories.' }),
    studio_url: z.string().meta({ description: "The studio's GitHub page." }),
  })
  .meta({ id: 'RegisteredGitHubApp', description: 'The App just registered (its secrets are stored encrypted, never returned).' });
