import type { RawBodyRoute } from '../api/create-server.js';
import { createDeliveryReceiver } from '../app/receive-delivery.js';
import { webhookSignatures } from '../core/github/webhook-signatures.js';
import type { ServiceDeps } from './build-deps.js';
import { githubWebhookRoute, WEBHOOK_PATH } from './github-webhook-middleware.js';

/**
 * The GitHub App's webhook, from the process's deps (GitHub access is built once, in
 * build-deps.ts). The secret and the App's id are those in force at each delivery: the App
 * registered from the studio, else the environment's (no restart). In every NODE_ENV a known secret
 * is always checked (401), and while none is known deliveries are refused with 503; only
 * SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true takes them unsigned meanwhile, with a warning at start and
 * on each one (docs/github-app.md, "Webhook signatures"). Never a secret in a log line.
 */
export function buildGitHubWebhook({
  config,
  logger,
  appCredentials,
  githubAppStore,
}: Pick<ServiceDeps, 'config' | 'logger' | 'appCredentials' | 'githubAppStore'>): RawBodyRoute {
  if (!config.github.webhookSecret && config.github.allowUnsignedWebhooks) {
    logger.warn(
      { event: 'webhook_unsigned', path: WEBHOOK_PATH },
      'SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true and WEBHOOK_SECRET is not set: until the App is registered from the studio, GitHub webhook deliveries are accepted WITHOUT a signature check, so anyone who reaches the webhook can forge them. For local experiments only; set WEBHOOK_SECRET (the App’s webhook secret).',
    );
  } else if (!config.github.webhookSecret) {
    logger.warn(
      { event: 'webhook_secret_missing', path: WEBHOOK_PATH },
      'WEBHOOK_SECRET is not set: GitHub webhook deliveries are refused (503) until the App is registered from the studio or WEBHOOK_SECRET is set.',
    );
  }
  const receive = createDeliveryReceiver({
    async keys() {
      const app = await appCredentials.current();
      return { signatures: webhookSignatures(app, config.github), appId: app ? Number(app.appId) : null };
    },
    onUnsigned({ event, deliveryId }) {
      logger.warn(
        { event: 'webhook_unsigned_delivery', github_event: event, delivery_id: deliveryId },
        'Accepted a GitHub webhook delivery without a signature check (no webhook secret is known; SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true).',
      );
    },
    store: githubAppStore,
  });
  return githubWebhookRoute(receive);
}
