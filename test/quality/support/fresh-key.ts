import { generateApiKey, hashApiKey } from '../../../core/accounts/api-key.js';
import type { TestApp } from '../../support/test-app.js';

/**
 * Headers carrying a brand-new key of `userId`, so a request that consumes its key
 * (POST /auth/rotate) leaves every other request's key working. Cheaper than a login.
 */
export async function freshKey(t: TestApp, userId: string): Promise<{ Authorization: string }> {
  const key = generateApiKey();
  await t.deps.accounts.addKey(userId, hashApiKey(key), 'quality-test');
  return { Authorization: `Bearer ${key}` };
}
