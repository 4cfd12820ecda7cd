import type { Role } from './roles.js';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  created_at: string;
}

/** Who is making a request: resolved from an API key by the auth middleware. */
export interface Principal {
  user: User;
  keyHash: string;
}
