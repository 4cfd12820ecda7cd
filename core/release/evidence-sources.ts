import { z } from 'zod';

/** The workflow path of a `job_workflow_ref`: `owner/repo/.github/workflows/<file>.yml`. */
const WORKFLOW_PATH = /^[\w.-]+\/[\w.-]+\/\.github\/workflows\/[^@*\s]+\.ya?ml$/i;

/**
 * Why a pattern is not one, or null. A pattern is a `job_workflow_ref`: the workflow file exactly
 * (its `owner/repo` compared case-insensitively, as GitHub does) and, after `@`, the ref it ran
 * on, where `*` matches any characters (`@refs/heads/*`, `@refs/tags/v*`, `@*`). No `*` before the
 * `@`: a source is one workflow file, never "any file" (docs/release-gate.md, "Evidence from workflows").
 */
function patternProblem(pattern: string): string | null {
  const at = pattern.indexOf('@');
  if (at < 0) return 'Expected owner/repo/.github/workflows/<file>.yml@<ref>, e.g. acme/api/.github/workflows/release.yml@refs/heads/main.';
  if (!WORKFLOW_PATH.test(pattern.slice(0, at)))
    return 'The part before `@` must be a workflow file, owner/repo/.github/workflows/<file>.yml, without `*`.';
  const ref = pattern.slice(at + 1);
  if (ref.length === 0 || /[\s@]/.test(ref))
    return 'The part after `@` must be a ref (`refs/heads/main`), optionally with `*`, without spaces.';
  return null;
}

/**
 * A gate's `evidence_sources`: the workflows whose OIDC tokens alone may record evidence for the
 * repository. Absent: any workflow of the repository may (as before); `[]`: none, only API keys.
 */
export const evidenceSourcesSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(500)
      .superRefine((pattern, ctx) => {
        const problem = patternProblem(pattern);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  )
  .max(50)
  .refine((list) => new Set(list).size === list.length, 'Patterns must be unique.')
  .optional()
  .meta({
    description:
      'The workflows whose GitHub Actions OIDC tokens alone may record evidence for this repository, as `job_workflow_ref` patterns: ' +
      '`owner/repo/.github/workflows/<file>.yml@<ref>`, where `*` after the `@` matches any characters (`@refs/heads/*`, `@refs/tags/v*`, `@*`). ' +
      'A token from any other workflow is refused (403). Absent: any workflow of the repository; `[]`: none (API keys only). ' +
      'Uploads with API keys are not workflows and are unaffected.',
    example: ['acme/api/.github/workflows/release.yml@refs/heads/main', 'acme/shared/.github/workflows/scan.yml@refs/tags/v*'],
  });
