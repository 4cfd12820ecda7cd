import type { User } from '../core/accounts/user.js';

/**
 * The answer to registering, logging in and signing in with GitHub: who the key belongs to and
 * the new key itself, shown only in this answer (docs/api.md).
 */
export function userWithKey({ user, apiKey }: { user: User; apiKey: string }) {
  return { id: user.id, email: user.email, name: user.name, role: user.role, api_key: apiKey };
}
