import { z } from 'zod';
import { pageQuerySchema } from './pagination-schemas.js';
import { repoRootSchema } from './release-schemas.js';

const timestamp = z.string().meta({ description: 'RFC 3339 UTC' });

export const deploymentsQuerySchema = pageQuerySchema.extend({
  repo_root: repoRootSchema.optional(),
  environment: z.string().trim().min(1).max(255).optional().meta({ description: 'A GitHub environment name (case-insensitive).' }),
});

export const deploymentResponseSchema = z
  .object({
    id: z.uuid(),
    repo_root: z.string(),
    environment: z.string(),
    commit_sha: z.string(),
    ref: z.string().nullable().meta({ description: 'The ref the deployment was made from, as GitHub sent it.' }),
    run_id: z.number().int().meta({ description: 'The workflow run that waited for the answer.' }),
    deployment_id: z.number().int(),
    state: z.enum(['approved', 'rejected']),
    decision: z.enum(['SHIP', 'NO_SHIP']).meta({ description: 'The release decision the answer was based on.' }),
    snapshot_id: z.uuid().meta({ description: 'The decision snapshot the answer was based on.' }),
    timed_out: z
      .boolean()
      .meta({ description: "Rejected because required checks were still pending at the gate's deployment_wait_seconds." }),
    comment: z.string().meta({ description: 'The comment sent to GitHub with the answer.' }),
    requested_at: timestamp,
    answered_at: timestamp,
  })
  .meta({ id: 'DeploymentResponse' });
