import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import { githubAccessFromConfig } from '../app/github-access-from-config.js';
import type { GitHubAppAccess } from '../app/github-access.js';
import { createDeliveryReceiver } from '../app/receive-delivery.js';
import { githubWebhookMiddleware, WEBHOOK_PATH } from './github-webhook-middleware.js';
import { createGitHubAppStore } from '../db/stores/github-app-store.js';

export interface GitHubApp {
  /** Mounted by createServer before any body parser. */
  webhook: Koa.Middleware;
  /** Handed to the worker: posting and the repository tools use it. */
  access: GitHubAppAccess;
}

/**
 * The GitHub App's pieces from the one configuration: GitHub access (App credentials or
 * GITHUB_TOKEN) and the webhook. Unsigned deliveries are accepted only with a warning at start
 * (production refuses to start that way unless SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true, see config).
 */
export function buildGitHubApp(config: Config, db: Knex, logger: Logger): GitHubApp {
  const access = githubAccessFromConfig(config, logger);
  if (!config.github.webhookSecret) {
    logger.warn(
      { event: 'webhook_unsigned', path: WEBHOOK_PATH },
      'WEBHOOK_SECRET is not set: GitHub webhook deliveries are accepted without a signature check. Set WEBHOOK_SECRET (the App’s webhook secret).',
    );
  }
  if (access.whyNot) logger.info({ event: 'github_posting_disabled' }, access.whyNot);
  const receive = createDeliveryReceiver({ secret: config.github.webhookSecret, appId: access.appId, store: createGitHubAppStore(db) });
  const webhook = githubWebhookMiddleware(receive);
  return { webhook, access };
}
