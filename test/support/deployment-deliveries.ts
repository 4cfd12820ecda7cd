import { examplePayload } from './github-deliveries.js';

let nextDeploymentId = 5000;

/**
 * A `deployment_protection_rule.requested` payload. @octokit/webhooks-examples has no example of
 * this event, so it is assembled in the documented shape from the real `deployment.created`
 * example (its `deployment`, `repository`, `sender`), moved to `repo` and the commit.
 */
export function deploymentRulePayload(
  repo: string,
  d: { sha: string; environment: string; runId: number; deploymentId?: number; ref?: string },
  installationId = 77,
) {
  const base = examplePayload('deployment', 'created', repo, installationId);
  const deploymentId = d.deploymentId ?? nextDeploymentId++;
  return {
    action: 'requested',
    environment: d.environment,
    event: 'push',
    deployment_callback_url: `https://api.github.com/repos/${repo}/actions/runs/${d.runId}/deployment_protection_rule`,
    deployment: {
      ...base.deployment,
      url: `https://api.github.com/repos/${repo}/deployments/${deploymentId}`,
      id: deploymentId,
      sha: d.sha,
      ref: d.ref ?? 'main',
      environment: d.environment,
      original_environment: d.environment,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    },
    pull_requests: [],
    repository: base.repository,
    installation: base.installation,
    sender: base.sender,
  };
}
