import { z } from 'zod';

/** A GitHub webhook payload, as GitHub sends it (the event's own shape; validated by the App, not here). */
export const githubWebhookPayloadSchema = z
  .object({ action: z.string().optional() })
  .passthrough()
  .meta({ id: 'GitHubWebhookPayload', description: 'Any GitHub webhook payload; the event is named by X-GitHub-Event.' });

export const githubWebhookAckSchema = z
  .object({
    status: z.enum(['queued', 'ignored', 'duplicate']),
    reason: z.string().optional().meta({ description: 'Why the delivery is ignored, or that it is a redelivery.' }),
  })
  .meta({ id: 'GitHubWebhookAck' });
