import type { Role } from './roles.js';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  created_at: string;
}

/** The GitHub account a user linked (docs/github-app.md, "Sign in with GitHub"). */
export interface GitHubLink {
  /** GitHub's numeric user id: what the link is keyed by (a login can be renamed). */
  id: number;
  login: string;
}

/** Who is making a request: resolved from an API key by the auth middleware. */
export interface Principal {
  user: User;
  keyHash: string;
  /** The caller's linked GitHub account; absent when none is linked. Repository access reads it (`core/accounts/repo-access.ts`). */
  github?: GitHubLink;
}
