import { z } from 'zod';
import { versionNumberQuerySchema } from './version-number-schema.js';
import { gateSchema } from '../../core/release/gate.js';
import { isRepoName, isRepoOwner } from '../../core/release/github-identifiers.js';
import { timestamp } from './release-schemas.js';

export const gateParamsSchema = z.object({
  owner: z
    .string()
    .refine(isRepoOwner, 'Not a GitHub owner name.')
    .transform((v) => v.toLowerCase()),
  repo: z
    .string()
    .refine(isRepoName, 'Not a GitHub repository name.')
    .transform((v) => v.toLowerCase()),
});

export const gateQuerySchema = z.object({
  version: versionNumberQuerySchema.optional().meta({ description: 'A recorded version; the newest when omitted.' }),
});

export const gateVersionSchema = z
  .object({
    repo_root: z.string(),
    version: z.number().int().meta({ description: '0 is the built-in default (no gate recorded).' }),
    digest: z.string().meta({ description: "SHA-256 of the gate's canonical JSON." }),
    gate: gateSchema,
    source: z.enum(['default', 'api', 'config_file']),
    created_by: z.uuid().nullable(),
    created_by_name: z
      .string()
      .nullable()
      .meta({ description: "Its author's display name, for every role (null for the default, the config file or an unknown user)." }),
    created_at: timestamp.nullable(),
  })
  .meta({ id: 'ReleaseGateVersion' });

export const gateVersionsQuerySchema = z.object({
  before: versionNumberQuerySchema.optional().meta({ description: 'Only versions below this one (the next page).' }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const gateVersionListSchema = z
  .object({
    versions: z.array(gateVersionSchema).meta({ description: 'Newest first.' }),
    next_before: z.number().int().nullable().meta({ description: 'Pass as `before` for the next page; null on the last.' }),
  })
  .meta({ id: 'ReleaseGateVersionList' });
