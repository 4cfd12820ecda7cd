import type { RawBodyRoute } from '../api/create-server.js';
import { createDeliveryReceiver } from '../app/receive-delivery.js';
import { createGitHubAppStore } from '../db/stores/postgres-github-app-store.js';
import type { ServiceDeps } from './build-deps.js';
import { githubWebhookRoute, WEBHOOK_PATH } from './github-webhook-middleware.js';

/**
 * The GitHub App's webhook, from the process's deps (GitHub access is built once, in
 * build-deps.ts). Unsigned deliveries are accepted only with a warning at start (production
 * refuses to start that way unless SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true, see config).
 */
export function buildGitHubWebhook({ config, db, logger, github }: Pick<ServiceDeps, 'config' | 'db' | 'logger' | 'github'>): RawBodyRoute {
  if (!config.github.webhookSecret) {
    logger.warn(
      { event: 'webhook_unsigned', path: WEBHOOK_PATH },
      'WEBHOOK_SECRET is not set: GitHub webhook deliveries are accepted without a signature check. Set WEBHOOK_SECRET (the App’s webhook secret).',
    );
  }
  const receive = createDeliveryReceiver({ secret: config.github.webhookSecret, appId: github.appId, store: createGitHubAppStore(db) });
  return githubWebhookRoute(receive);
}
