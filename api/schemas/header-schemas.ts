import { z } from 'zod';
import type { ResponseHeader } from '../route.js';

/** `Location` of what a request created: its path under /api/v1, always sent with the 201. */
export function locationHeader(description: string): Record<string, ResponseHeader> {
  return { Location: { description, schema: z.string().meta({ format: 'uri-reference' }) } };
}

/** `Retry-After` in whole seconds: the error handler sends it with every 429 and 503. */
export const retryAfterHeader: Record<string, ResponseHeader> = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: z.int().min(0) },
};
