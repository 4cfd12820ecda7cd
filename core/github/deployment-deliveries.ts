import type { DeploymentRuleIntent } from './deployment-rule-intent.js';
import type { DeploymentStore } from './deployment-store.js';

/** A deployment protection request arrived: recorded once (redeliveries find it), evaluated by its job. */
export async function acceptDeploymentRequest(
  deployments: DeploymentStore,
  intent: DeploymentRuleIntent,
  receivedAt: Date,
  deliveryId: string,
): Promise<void> {
  const request = await deployments.recordRequest(intent, receivedAt, deliveryId);
  if (request.state === 'waiting') await deployments.scheduleReview(request.id);
}

/** A check run on the commit completed: deployments waiting on it are evaluated again now. */
export async function reviewWaitingDeployments(deployments: DeploymentStore, repoRoot: string, commitSha: string): Promise<void> {
  for (const request of await deployments.waitingAt(repoRoot, commitSha)) await deployments.scheduleReview(request.id);
}
