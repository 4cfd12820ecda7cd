import { createHash, randomBytes } from 'node:crypto';

/** `sg_` + 32 random bytes, base64url: shown once, stored only as its SHA-256. */
export function generateApiKey(): string {
  return `sg_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
