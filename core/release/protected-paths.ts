import { z } from 'zod';
import { pathGlobListSchema } from './path-globs.js';

/**
 * The gate's own inputs (docs/release-gate.md, "Protected paths"): a `pull_request` workflow runs the definition on the
 * pull request's branch, so an agent that edits `.github/workflows/**` can make its own `build` pass; the gate file
 * and CODEOWNERS decide who must approve.
 */
export const DEFAULT_PROTECTED_PATHS = ['.github/workflows/**', '.github/actions/**', '.github/shipgate.yml', '**/CODEOWNERS'] as const;

/** The least permission of a protected-path approver; write is what every independent approval already has. */
export const PROTECTED_PATH_PERMISSIONS = ['maintain', 'admin'] as const;

/**
 * `protected_paths`: an agent's change touching these paths needs approvals from people with at least `permission`,
 * independent as every approval is. Its own field, not one of `rules`, so a gate that writes its own rules keeps it;
 * on by default and turned off only explicitly (`enabled: false`).
 */
export const protectedPathsSchema = z
  .object({
    enabled: z.boolean().default(true).meta({ description: 'false turns the protected paths off (explicitly: they are on by default).' }),
    paths: pathGlobListSchema
      .min(1)
      .default([...DEFAULT_PROTECTED_PATHS])
      .meta({
        description:
          'gitignore-style globs of the paths an agent may not change without a maintainer (default: workflows, actions, `.github/shipgate.yml`, every CODEOWNERS).',
      }),
    approvals: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(1)
      .meta({ description: 'Approvals needed from independent people with `permission`.' }),
    permission: z
      .enum(PROTECTED_PATH_PERMISSIONS)
      .default('maintain')
      .meta({ description: 'The least repository permission an approver has: `maintain` (or `admin`) or `admin`.' }),
  })
  .strict()
  .meta({ id: 'ReleaseGateProtectedPaths' });

export type ProtectedPathsConfig = z.output<typeof protectedPathsSchema>;
