import type { Role } from './roles.js';

/**
 * The very first account of an installation becomes ADMIN, whatever was asked for: someone has to
 * be able to grant roles. Every later account gets the role it was registered with. The store
 * tells whether users exist (atomically, under its registration lock); this decides.
 */
export function roleForNewUser(requested: Role, usersExist: boolean): Role {
  return usersExist ? requested : 'ADMIN';
}
