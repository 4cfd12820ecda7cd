import type { RawBodyRoute } from '../api/create-server.js';
import { createDeliveryReceiver } from '../app/receive-delivery.js';
import type { ServiceDeps } from './build-deps.js';
import { githubWebhookRoute, WEBHOOK_PATH } from './github-webhook-middleware.js';

/**
 * The GitHub App's webhook, from the process's deps (GitHub access is built once, in
 * build-deps.ts). The secret and the App's id are those in force at each delivery: the
 * environment's, else the App registered from the studio (no restart). While no secret is known,
 * deliveries are accepted unsigned with a warning at start, except in production, where they are
 * refused with 503 until WEBHOOK_SECRET is set or the App is registered (unless
 * SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true; docs/github-app.md, "Webhook signatures").
 */
export function buildGitHubWebhook({
  config,
  logger,
  appCredentials,
  githubAppStore,
}: Pick<ServiceDeps, 'config' | 'logger' | 'appCredentials' | 'githubAppStore'>): RawBodyRoute {
  const refuse = config.env === 'production' && !config.github.allowUnsignedWebhooks;
  if (!config.github.webhookSecret) {
    logger.warn(
      { event: 'webhook_unsigned', path: WEBHOOK_PATH },
      refuse
        ? 'WEBHOOK_SECRET is not set: GitHub webhook deliveries are refused (503) until the App is registered from the studio or WEBHOOK_SECRET is set.'
        : 'WEBHOOK_SECRET is not set: until the App is registered from the studio, GitHub webhook deliveries are accepted without a signature check. Set WEBHOOK_SECRET (the App’s webhook secret).',
    );
  }
  const receive = createDeliveryReceiver({
    async keys() {
      const app = await appCredentials.current();
      return { secret: app?.webhookSecret ?? config.github.webhookSecret ?? null, appId: app ? Number(app.appId) : null };
    },
    unsigned: refuse ? 'refuse' : 'accept',
    store: githubAppStore,
  });
  return githubWebhookRoute(receive);
}
