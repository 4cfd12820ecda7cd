import type { Role } from './roles.js';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  created_at: string;
  /**
   * Made a service account by an ADMIN (for CI keys): judged by its role alone on repositories,
   * without a GitHub link (docs/api.md, "Repository access").
   */
  service_account: boolean;
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
  /**
   * The GitHub account (numeric id) repository access is checked against: the linked one, else the
   * one last linked (an unlink does not clear it, so it never widens access); absent when the user
   * was never linked.
   */
  githubUserId?: number;
}
