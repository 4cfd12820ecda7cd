import { z } from 'zod';
import { repoRootSchema, timestamp } from './release-schemas.js';

export const healthQuerySchema = z.object({ repo_root: repoRootSchema.optional() });

export const healthResponseSchema = z
  .object({
    status: z.enum(['healthy', 'degraded', 'failed']),
    verification_graph: z.object({ reachable: z.boolean(), latency_ms: z.number() }),
    latest_attested_snapshot: z
      .object({
        snapshot_id: z.uuid(),
        repo_root: z.string(),
        commit_sha: z.string(),
        attested_at: timestamp,
        age_seconds: z.number().int(),
        max_age_seconds: z.number().int(),
        fresh: z.boolean(),
      })
      .nullable(),
    runtime_evidence: z.object({
      missing: z.boolean(),
      items: z.array(
        z.object({
          kind: z.enum(['worker_heartbeat', 'signing_key', 'check_run', 'evidence']),
          name: z.string(),
          repo_root: z.string().nullable(),
          commit_sha: z.string().nullable(),
        }),
      ),
    }),
    checked_at: timestamp,
  })
  .meta({ id: 'ReleaseHealth' });
