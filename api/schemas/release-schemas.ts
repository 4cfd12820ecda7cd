import { z } from 'zod';
import { normalizeCommitSha, normalizeRepoRoot } from '../../core/release/github-identifiers.js';

// What every release resource shares: the repository and commit a request names, timestamps,
// optional text. Each resource's shapes are in release-<resource>-schemas.ts.

export const timestamp = z.string().meta({ description: 'RFC 3339 UTC' });

/** Optional free text: trimmed, not empty, at most `max` characters; null when not given. */
export function optionalTextSchema(max: number) {
  return z.string().trim().min(1).max(max).nullable().default(null);
}

export const repoRootSchema = z
  .string()
  .max(300)
  .refine((v) => normalizeRepoRoot(v) !== null, 'Expected owner/repo or https://github.com/owner/repo.')
  .transform((v) => normalizeRepoRoot(v)!)
  .meta({ description: '`owner/repo` or `https://github.com/owner/repo`; compared case-insensitively.', example: 'acme/widgets' });

export const commitShaSchema = z
  .string()
  .refine((v) => normalizeCommitSha(v) !== null, 'Expected a 40-character hexadecimal commit SHA.')
  .transform((v) => normalizeCommitSha(v)!)
  .meta({ description: '40 hexadecimal characters, any case (stored lower case).', example: '3f786850e387550fdab836ed7e6dc881de23001b' });

export const decisionQuerySchema = z.object({ repo_root: repoRootSchema, commit_sha: commitShaSchema });
