import * as core from '@actions/core';
import { ActionError } from './action-error.js';

/** How the Action authenticates to shipgate: a stored API key, or the job's GitHub OIDC token. */
export interface Credential {
  kind: 'api-key' | 'oidc';
  /** The bearer value for the next request. */
  token(): Promise<string>;
}

export function apiKeyCredential(key: string): Credential {
  // Masked before anything else can print it: the runner replaces it with *** in every log line.
  core.setSecret(key);
  return { kind: 'api-key', token: async () => key };
}

// GitHub's tokens live about five minutes or more; a long wait-timeout asks for a fresh one.
const OIDC_TOKEN_REUSE_MS = 4 * 60 * 1000;

/** The job's OIDC token for `audience` (core.getIDToken masks it), fetched again before it could expire. */
export function oidcCredential(audience: string): Credential {
  let cached: { token: string; at: number } | undefined;
  return {
    kind: 'oidc',
    async token() {
      if (cached && Date.now() - cached.at < OIDC_TOKEN_REUSE_MS) return cached.token;
      try {
        cached = { token: await core.getIDToken(audience), at: Date.now() };
      } catch (error) {
        throw new ActionError(
          'No api-key was given, and this job could not get a GitHub OIDC token: give the job `permissions: id-token: write` ' +
            `(or set api-key). ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return cached.token;
    },
  };
}
