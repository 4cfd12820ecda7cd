import { ForbiddenError } from '../errors.js';
import type { AccountStore } from './account-store.js';
import { generateApiKey, hashApiKey } from './api-key.js';
import { hashPassword } from './password.js';
import type { Role } from './roles.js';
import type { Principal, User } from './user.js';

export interface RegistrationPolicy {
  registration: 'open' | 'closed';
  defaultRole: Role;
}

export interface RegisterInput {
  email: string;
  name: string;
  password: string;
  /** Only honoured when an ADMIN registers someone. */
  role?: Role;
}

export const REGISTRATION_CLOSED = 'Registration is closed; an ADMIN must create the account.';

/**
 * Self-registration gets the default role (the very first user becomes ADMIN); a client
 * never chooses its own role. With registration closed only an ADMIN may create users, except
 * the very first user (who becomes that ADMIN): otherwise a closed install could never start.
 */
export async function registerUser(
  store: AccountStore,
  policy: RegistrationPolicy,
  input: RegisterInput,
  caller?: Principal,
): Promise<{ user: User; apiKey: string }> {
  const byAdmin = caller?.user.role === 'ADMIN';
  const bootstrapOnly = policy.registration === 'closed' && !byAdmin;
  // Refuse before spending a password hash; the store re-checks atomically for a racing first user.
  if (bootstrapOnly && (caller || (await store.listUsers({ limit: 1 })).items.length > 0)) throw new ForbiddenError(REGISTRATION_CLOSED);
  const apiKey = generateApiKey();
  const user = await store.createUser(
    {
      email: input.email.toLowerCase(),
      name: input.name,
      passwordHash: await hashPassword(input.password),
      role: byAdmin && input.role ? input.role : policy.defaultRole,
      onlyIfFirst: bootstrapOnly,
    },
    hashApiKey(apiKey),
  );
  return { user, apiKey };
}
