import { z } from 'zod';
import { repoRootSchema } from './release-schemas.js';
import { isCursorTime } from '../../core/pagination.js';

const timestamp = z.string().meta({ description: 'RFC 3339 UTC' });

export const installationSchema = z
  .object({
    id: z.number().int(),
    account: z.object({ login: z.string(), type: z.string().meta({ description: '`Organization` or `User` (as GitHub says).' }) }),
    repository_selection: z.enum(['all', 'selected']),
    suspended_at: timestamp.nullable().meta({ description: 'When the installation was suspended; null while active.' }),
    repositories: z.array(z.string()).meta({ description: '`owner/repo` (lower case) of every repository it may access.' }),
    repositories_unavailable: z
      .string()
      .nullable()
      .meta({ description: 'Why `repositories` is empty although it may have some (a suspended installation gets no token).' }),
  })
  .meta({ id: 'GitHubInstallation' });

export const installationListSchema = z
  .object({
    configured: z.boolean().meta({ description: 'Whether App credentials are in force (environment or studio registration).' }),
    app_id: z.number().int().nullable(),
    reason: z.string().nullable().meta({ description: 'Why there is nothing to list (no App credentials); null when configured.' }),
    installations: z.array(installationSchema),
  })
  .meta({ id: 'GitHubInstallationList' });

export const deliveryOutcomeSchema = z.enum(['queued', 'processed', 'failed', 'ignored']).meta({ id: 'GitHubDeliveryOutcome' });

const gitHubRejectionSchema = z
  .object({
    at: timestamp,
    request: z.string().meta({ description: 'Method and path, e.g. `POST /repos/acme/app/check-runs`.' }),
    status: z
      .number()
      .int()
      .meta({ description: "GitHub's status: 422 (invalid), 403 (not allowed; no rate limit), 404 (gone or out of reach)." }),
    message: z.string().meta({ description: "GitHub's message, with the details of its `errors` list." }),
  })
  .meta({ id: 'GitHubRejection' });

export const deliverySchema = z
  .object({
    delivery_id: z.string().meta({ description: 'X-GitHub-Delivery.' }),
    event: z.string(),
    action: z.string().nullable(),
    repo_root: z.string().nullable(),
    installation_id: z.number().int().nullable(),
    outcome: deliveryOutcomeSchema,
    reason: z.string().nullable().meta({
      description: "ignored: why; failed: the last attempt's error; queued after a failed attempt: the error it is retried after.",
    }),
    received_at: timestamp,
    started_at: timestamp.nullable().meta({ description: "When the job's last attempt started; null before it ran." }),
    finished_at: timestamp.nullable(),
    duration_ms: z.number().int().nullable().meta({ description: "The last attempt's duration." }),
    attempts: z.number().int().meta({ description: 'Attempts of the job so far (5 at most).' }),
    duplicates: z
      .number()
      .int()
      .meta({ description: 'Receipts of the same X-GitHub-Delivery after the first (answered `duplicate`, nothing done).' }),
    last_duplicate_at: timestamp.nullable(),
    recovery_redeliveries: z
      .number()
      .int()
      .meta({ description: 'Redeliveries missed-delivery recovery asked GitHub for (0: GitHub delivered it by itself).' }),
    rejections: z.array(gitHubRejectionSchema).meta({
      description:
        'What GitHub refused when shipgate posted for this delivery (a check run, a comment, a deployment review), oldest first; ' +
        'such a refusal is never retried. Empty: nothing was refused.',
    }),
  })
  .meta({ id: 'GitHubDelivery' });

export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema) }).meta({ id: 'GitHubDeliveryList' });

/** The cursor of this list: received_at to the microsecond and the delivery id (GitHub's ids are not always UUIDs). */
export function encodeDeliveryCursor(cursor: { receivedAt: string; deliveryId: string }): string {
  return Buffer.from(JSON.stringify([cursor.receivedAt, cursor.deliveryId])).toString('base64url');
}

export function decodeDeliveryCursor(raw: string): { receivedAt: string; deliveryId: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      if (isCursorTime(value[0]) && value[1].length <= 200) return { receivedAt: value[0], deliveryId: value[1] };
    }
  } catch {
    // not ours
  }
  return undefined;
}

export const deliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: 'Page size, 1-100.' }),
  cursor: z
    .string()
    .max(400)
    .optional()
    .refine((c) => c === undefined || decodeDeliveryCursor(c) !== undefined, 'Invalid cursor.')
    .meta({ description: "Opaque cursor from the previous page's Link header." }),
  outcome: z
    .enum(['queued', 'processed', 'failed', 'ignored', 'duplicate'])
    .optional()
    .meta({ description: '`duplicate`: deliveries received more than once, whatever their outcome.' }),
  repo_root: repoRootSchema.optional(),
});
