import type { Config } from '../config.js';
import type { GitHubAppCredentials } from './app-credentials.js';

/**
 * How the webhook treats deliveries now (docs/github-app.md, "Webhook signatures"), in every
 * NODE_ENV: `verified` when a webhook secret is known (WEBHOOK_SECRET, or the App registered from
 * the studio): every delivery must carry its valid signature; `refused` while none is known: every
 * delivery is refused (503); `unsigned` only while none is known and SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS
 * is true (local experiments): deliveries are taken without a signature check. A known secret is
 * always checked, whatever the flag says.
 */
export interface WebhookSignatures {
  /** The secret deliveries must be signed with; null while none is known. */
  secret: string | null;
  deliveries: 'verified' | 'unsigned' | 'refused';
}

/** The rule above for the App in force (its secret wins over WEBHOOK_SECRET, as for every App credential). */
export function webhookSignatures(
  app: Pick<GitHubAppCredentials, 'webhookSecret'> | null,
  github: Pick<Config['github'], 'webhookSecret' | 'allowUnsignedWebhooks'>,
): WebhookSignatures {
  const secret = app?.webhookSecret || github.webhookSecret || null;
  if (secret) return { secret, deliveries: 'verified' };
  return { secret: null, deliveries: github.allowUnsignedWebhooks ? 'unsigned' : 'refused' };
}
