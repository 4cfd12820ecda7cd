import { z } from 'zod';
import { BLOCKER_CODES } from '../../core/release/blocker.js';
import { MAX_OVERRIDE_SECONDS, MIN_OVERRIDE_SECONDS } from '../../core/release/override.js';
import { pageQuerySchema } from './pagination-schemas.js';
import { storableString } from './storable-string-schema.js';
import { commitShaSchema, repoRootSchema, timestamp } from './release-schemas.js';

export const overrideRequestSchema = z
  .object({
    repo_root: repoRootSchema,
    commit_sha: commitShaSchema,
    blockers: z.array(z.string().trim().min(1).max(300)).min(1).max(50).meta({
      description:
        'Blockers the commit has now, each by its component (`check:build`, `rule:security`) or its code (`required_check_failed`: every blocker of that code it has now).',
    }),
    reason: storableString()
      .trim()
      .min(20)
      .max(2000)
      .meta({ description: 'Why it must ship anyway; 20-2000 characters, shown on the check run.' }),
    expires_in_seconds: z
      .number()
      .int()
      .min(MIN_OVERRIDE_SECONDS)
      .max(MAX_OVERRIDE_SECONDS)
      .meta({ description: `How long the override lasts: ${MIN_OVERRIDE_SECONDS} s to 7 days.` }),
  })
  .strict()
  .meta({ id: 'ReleaseOverrideRequest' });

export const overrideParamsSchema = z.object({ override_id: z.uuid() });

export const overrideResponseSchema = z
  .object({
    id: z.uuid(),
    repo_root: z.string(),
    commit_sha: z.string(),
    named: z.array(z.string()).meta({ description: 'The blockers as the overrider named them.' }),
    blockers: z
      .array(z.object({ code: z.enum(BLOCKER_CODES), component: z.string() }))
      .meta({ description: 'What those names matched when the override was made: exactly what it lifts.' }),
    reason: z.string(),
    reason_digest: z.string().meta({ description: 'SHA-256 (hex) of the reason: what snapshots and signed statements bind.' }),
    created_by: z.uuid(),
    created_by_name: z.string().nullable(),
    created_by_login: z.string().meta({ description: 'The overrider’s GitHub login.' }),
    created_at: timestamp,
    expires_at: timestamp,
    revoked_at: timestamp.nullable(),
    revoked_by: z.uuid().nullable(),
    state: z.enum(['active', 'expired', 'revoked']).meta({ description: 'Judged against the clock when answered.' }),
  })
  .meta({ id: 'ReleaseOverride' });

export const overridesQuerySchema = pageQuerySchema.extend({ repo_root: repoRootSchema });

export const overrideListSchema = z.object({ overrides: z.array(overrideResponseSchema) }).meta({ id: 'ReleaseOverrideList' });
