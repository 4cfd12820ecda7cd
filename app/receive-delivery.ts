import { UnavailableError, ValidationError } from '../core/errors.js';
import { holdsNulCharacter } from '../core/json-value-holds.js';
import type { GitHubAppStore } from '../core/github/github-app-store.js';
import { interpretDelivery } from '../core/github/interpret-delivery.js';
import type { WebhookSignatures } from '../core/github/webhook-signatures.js';
import { createSignatureVerifier } from './webhook-signature.js';

/** What a delivery is checked against, read at each delivery (the App registered from the studio counts at once). */
export interface ReceiverKeys {
  /** The secret deliveries must be signed with, and what happens while none is known (core/github/webhook-signatures.ts). */
  signatures: WebhookSignatures;
  /** Our App's id: events about our own check run are ignored. */
  appId: number | null;
}

export interface ReceiverOptions {
  keys(): Promise<ReceiverKeys>;
  /** A delivery taken without a signature check (no secret known, SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS): the caller logs it. */
  onUnsigned(delivery: { event: string; deliveryId: string }): void;
  store: GitHubAppStore;
}

export interface RawDelivery {
  rawBody: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
}

export interface DeliveryAnswer {
  status: 202 | 400 | 401 | 415;
  body: { status: 'queued' | 'ignored' | 'duplicate'; reason?: string } | { detail: string };
}

const header = (headers: RawDelivery['headers'], name: string) => {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
};

/** The two content types a GitHub webhook can be configured with; null for anything else. */
function payloadFormat(contentType: string | undefined): 'json' | 'form' | null {
  const mediaType = contentType?.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' ? 'json' : mediaType === 'application/x-www-form-urlencoded' ? 'form' : null;
}

/**
 * A form-encoded delivery (a webhook configured with content type x-www-form-urlencoded) holds the
 * JSON in `payload`. A NUL character anywhere in it is refused here (422, nothing recorded), not in
 * the job five attempts later: PostgreSQL stores no NUL in text, and JSON can only carry one
 * escaped, so the walk runs only when the text has `\u0000`.
 */
function parsePayload(rawBody: string, format: 'json' | 'form'): unknown {
  const text = (format === 'form' ? new URLSearchParams(rawBody).get('payload') : rawBody) ?? '';
  const payload: unknown = JSON.parse(text);
  if (/\\u0000/i.test(text) && holdsNulCharacter(payload))
    throw ValidationError.single(['body'], 'The payload holds a NUL character, which shipgate cannot store.', 'unstorable_value');
  return payload;
}

/**
 * One webhook delivery, from its raw bytes: the signature is verified first (401, nothing
 * recorded; 503 while no secret is known, unless unsigned deliveries are allowed), then its headers, content type and JSON (400, 415, 400), then the delivery is
 * claimed by its X-GitHub-Delivery id with its work queued in the same transaction, and the
 * answer is 202 at once: `queued`, `ignored` with the reason, or `duplicate` (a redelivery: no
 * effect). The work itself runs in the github_delivery job. server/github-webhook-middleware.ts
 * documents these answers in /openapi.json.
 */
export function createDeliveryReceiver(options: ReceiverOptions): (delivery: RawDelivery) => Promise<DeliveryAnswer> {
  let verifier: { secret: string; verify: ReturnType<typeof createSignatureVerifier> } | null = null;
  return async ({ rawBody, headers }) => {
    const { signatures, appId } = await options.keys();
    const { secret } = signatures;
    if (signatures.deliveries === 'refused') {
      throw new UnavailableError(
        'No webhook secret is known yet: set WEBHOOK_SECRET or register the GitHub App from the studio (docs/github-app.md).',
      );
    }
    if (secret && verifier?.secret !== secret) verifier = { secret, verify: createSignatureVerifier(secret) };
    const verify = secret ? verifier!.verify : null;
    const signature = header(headers, 'x-hub-signature-256');
    if (verify && !(await verify(rawBody, signature))) {
      return { status: 401, body: { detail: signature ? 'Invalid X-Hub-Signature-256.' : 'Missing X-Hub-Signature-256.' } };
    }
    const event = header(headers, 'x-github-event');
    const deliveryId = header(headers, 'x-github-delivery');
    if (!event || !deliveryId || deliveryId.length > 200 || event.length > 100) {
      return { status: 400, body: { detail: 'A delivery needs the X-GitHub-Event and X-GitHub-Delivery headers.' } };
    }
    if (!verify) options.onUnsigned({ event, deliveryId });
    const format = payloadFormat(header(headers, 'content-type'));
    if (!format) {
      return { status: 415, body: { detail: 'A delivery is application/json or application/x-www-form-urlencoded, as GitHub sends it.' } };
    }
    let payload: unknown;
    try {
      payload = parsePayload(rawBody, format);
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      return { status: 400, body: { detail: 'The payload is not JSON.' } };
    }
    const interpreted = interpretDelivery(event, payload, appId);
    const { outcome } = interpreted;
    const claimed = await options.store.claimDelivery({
      delivery_id: deliveryId,
      event,
      action: interpreted.action,
      repo_root: interpreted.repo_root,
      installation_id: interpreted.installation_id,
      outcome,
    });
    if (!claimed) return { status: 202, body: { status: 'duplicate', reason: 'This delivery was already received.' } };
    return { status: 202, body: outcome.status === 'queued' ? { status: 'queued' } : { status: 'ignored', reason: outcome.reason } };
  };
}
