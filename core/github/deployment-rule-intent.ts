import { z } from 'zod';
import { normalizeCommitSha } from '../release/github-identifiers.js';

/** A deployment waiting on shipgate's custom deployment protection rule. */
export interface DeploymentRuleIntent {
  kind: 'deployment_protection_rule';
  repo_root: string;
  /** Only an App installation can answer its own rule, so it is always known. */
  installation_id: number;
  environment: string;
  commit_sha: string;
  ref: string | null;
  /** The workflow run waiting, from `deployment_callback_url`. */
  run_id: number;
  deployment_id: number;
}

/** `.../repos/{owner}/{repo}/actions/runs/{run_id}/deployment_protection_rule`: the run id is all we take from it. */
const CALLBACK_RUN = /\/actions\/runs\/(\d{1,19})\/deployment_protection_rule\/?$/;

const payloadSchema = z.object({
  environment: z.string().min(1).max(255),
  deployment_callback_url: z.string().max(2000),
  deployment: z.object({
    id: z.number().int().positive(),
    sha: z.string(),
    ref: z.string().nullish(),
  }),
});

/**
 * What a `deployment_protection_rule.requested` delivery asks, or why it cannot be answered. The
 * answer goes to the API path built from the repository and run id, never to the URL as sent.
 */
export function deploymentRuleIntent(
  payload: unknown,
  target: { repo_root: string; installation_id: number | null },
): DeploymentRuleIntent | { ignored: string } {
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) return { ignored: 'The deployment_protection_rule payload lacks the fields shipgate needs.' };
  const { environment, deployment_callback_url: callback, deployment } = parsed.data;
  const run = CALLBACK_RUN.exec(callback);
  const sha = normalizeCommitSha(deployment.sha);
  if (!run || !sha) return { ignored: 'The deployment_protection_rule payload names no workflow run or commit SHA.' };
  if (target.installation_id === null) {
    return { ignored: 'Deployment protection rules are answered by the GitHub App, and this delivery names no installation.' };
  }
  return {
    kind: 'deployment_protection_rule',
    repo_root: target.repo_root,
    installation_id: target.installation_id,
    environment,
    commit_sha: sha,
    ref: deployment.ref ?? null,
    run_id: Number(run[1]),
    deployment_id: deployment.id,
  };
}
