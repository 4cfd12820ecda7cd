import { z } from 'zod';
import { PROMOTION_TARGETS } from '../../core/release/promotion.js';
import { SNAPSHOT_STATUSES } from '../../core/release/snapshot.js';
import { pageQuerySchema } from './pagination-schemas.js';
import { commitShaSchema, optionalTextSchema, repoRootSchema, timestamp } from './release-schemas.js';

export const promotionRequestSchema = z
  .object({
    snapshot_id: z.uuid(),
    target_status: z.enum(PROMOTION_TARGETS).meta({
      description:
        "attested (from a SHIP candidate that is the commit's latest), promoted (from attested), rejected (from candidate), revoked (from attested or promoted).",
    }),
    release_label: optionalTextSchema(120).meta({ example: 'v1.4.0' }),
    metadata: z
      .record(z.string(), z.unknown())
      .default({})
      .refine((m) => JSON.stringify(m).length <= 16 * 1024, 'At most 16 KiB of JSON.')
      .meta({ description: 'Channel-specific metadata, recorded as given.' }),
  })
  .strict()
  .meta({ id: 'PromotionRequest' });

export const promotionResponseSchema = z
  .object({
    id: z.uuid(),
    snapshot_id: z.uuid(),
    repo_root: z.string(),
    commit_sha: z.string(),
    from_status: z.enum(SNAPSHOT_STATUSES),
    status: z.enum(SNAPSHOT_STATUSES),
    release_label: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    promoted_by: z.uuid(),
    promoted_by_name: z.string().nullable().meta({ description: "The promoter's display name, for every role (null if unknown)." }),
    created_at: timestamp,
    attestation: z
      .object({
        payloadType: z.string(),
        payload: z.string(),
        signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })),
      })
      .meta({
        description:
          'DSSE envelope of an in-toto Statement with an SLSA Verification Summary v1 predicate; subject digest {gitCommit: <sha>}.',
      }),
  })
  .meta({ id: 'PromotionResponse' });

export const promotionsQuerySchema = pageQuerySchema.extend({
  repo_root: repoRootSchema.optional(),
  commit_sha: commitShaSchema.optional(),
});

export const promotionListSchema = z.object({ promotions: z.array(promotionResponseSchema) }).meta({ id: 'PromotionList' });
