import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhooks } from '@octokit/webhooks';

/**
 * Checks `X-Hub-Signature-256` (HMAC-SHA256 of the raw body, compared in constant time) with
 * @octokit/webhooks, the verifier Probot uses. A missing or malformed header is simply invalid.
 */
export function createSignatureVerifier(secret: string): (rawBody: string, signature: string | undefined) => Promise<boolean> {
  const webhooks = new Webhooks({ secret });
  return async (rawBody, signature) => {
    if (!signature || !/^sha256=[0-9a-f]{64}$/i.test(signature)) return false;
    // @octokit/webhooks refuses to check an empty body; signed, it is a delivery that is not JSON (400), not a forgery (401).
    if (rawBody === '') return timingSafeEqual(Buffer.from(signature.slice(7).toLowerCase(), 'hex'), createHmac('sha256', secret).digest());
    try {
      return await webhooks.verify(rawBody, signature);
    } catch {
      return false;
    }
  };
}
