import { UnavailableError } from '../../core/errors.js';
import { defineRoute } from '../route.js';
import { githubWebhookAckSchema, githubWebhookPayloadSchema } from '../schemas/github-webhook-schemas.js';

/**
 * The GitHub App's webhook, described here for the OpenAPI document. Deliveries are answered by
 * the raw-body middleware the composition root mounts ahead of every router (the signature covers
 * the exact bytes), so this handler only runs in a server built without the App.
 */
export const githubWebhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/releases/github-webhook',
    tags: ['releases'],
    auth: 'public',
    summary: 'GitHub App webhook (signed deliveries from GitHub)',
    description:
      'Headers `X-GitHub-Event`, `X-GitHub-Delivery` and, with WEBHOOK_SECRET set, `X-Hub-Signature-256` (HMAC-SHA256 of the raw body). ' +
      'Each delivery id is claimed once: a redelivery answers `duplicate` and has no effect. The work (recording check runs, ' +
      'evaluating, posting the check run and comment) runs in queued jobs; the answer comes at once.',
    body: githubWebhookPayloadSchema,
    responses: { 202: { description: 'Accepted: queued, ignored (with the reason) or duplicate.', schema: githubWebhookAckSchema } },
    errors: {
      400: 'Missing X-GitHub-Event or X-GitHub-Delivery, or a body that is not JSON.',
      401: 'Missing or invalid X-Hub-Signature-256 (with WEBHOOK_SECRET set); nothing is recorded.',
      413: 'Payload over 25 MB.',
    },
    handler() {
      throw new UnavailableError('The GitHub App webhook is not mounted in this server.');
    },
  }),
];
