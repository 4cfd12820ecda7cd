import type { z } from 'zod';
import { EvidenceDocumentInvalid } from '../errors.js';

/** Parses with a zod schema of the fields shipgate reads; the first problem becomes EvidenceDocumentInvalid at its path. */
export function readWith<T extends z.ZodType>(schema: T, value: unknown, what: string, prefix: (string | number)[] = []): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const loc = [...prefix, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
  throw new EvidenceDocumentInvalid(loc, `Not a ${what}: ${issue.message}${loc.length ? ` at ${loc.join('.')}` : ''}.`);
}
