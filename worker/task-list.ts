import type { Task } from 'graphile-worker';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import type { JobPayloads } from '../db/job-queue.js';
import { octokitDeploymentReviewer } from '../app/octokit-deployment-reviewer.js';
import { githubDeploymentReviewTask } from './github-deployment-review-task.js';
import { octokitRecoveryGitHub } from '../app/octokit-recovery-github.js';
import { githubDeliveryRecoveryTask } from './github-delivery-recovery-task.js';
import { githubDeliveryTask } from './github-delivery-task.js';
import { githubAuthorshipTask } from './github-authorship-task.js';
import { githubPublishTask } from './github-publish-task.js';
import { mcpSessionExpiryTask } from './mcp-session-expiry-task.js';
import { githubSessionRecheckTask } from './github-session-recheck-task.js';
import { runExecutionTask } from './run-execution-task.js';
import { runWorkflowTask } from './run-workflow-task.js';
import type { WorkerDeps } from './worker-deps.js';

/**
 * Every job type the service queues, with its handler. Typed by db/job-queue.ts's JobPayloads,
 * so a job type added there without a handler here fails the typecheck. Each handler gets the
 * ports the composition root built (server/build-deps.ts); none builds a store of its own.
 */
export function buildTaskList(runtime: RuntimeDeps, deps: WorkerDeps): Record<keyof JobPayloads, Task> {
  const github = {
    release: deps.release,
    gateFiles: deps.gateFiles,
    app: deps.githubAppStore,
    access: deps.github,
    deployments: deps.deployments,
    authorship: deps.authorship,
    arrivals: deps.commitArrivals,
    // Asks for the App in force when it answers: one registered from the studio needs no restart.
    reviewer: octokitDeploymentReviewer(deps.github),
    publicUrl: deps.config.publicUrl,
    log: (event: string, fields: Record<string, unknown>) => deps.logger.info({ event, ...fields }, event),
  };
  return {
    run_execution: runExecutionTask(runtime),
    github_delivery: githubDeliveryTask({ ...github, deliveries: deps.deliveries }),
    github_publish: githubPublishTask(github),
    github_authorship: githubAuthorshipTask(github),
    run_workflow: runWorkflowTask(runtime, deps),
    github_deployment_review: githubDeploymentReviewTask(github),
    github_delivery_recovery: githubDeliveryRecoveryTask({
      ...github,
      // The App in force when the run starts (docs/github-app.md, "Where the App's credentials come from").
      async github() {
        const { app } = await deps.github.current();
        return app && octokitRecoveryGitHub(app);
      },
      recovery: deps.recovery,
      intervalSeconds: deps.config.github.deliveryRecoverySeconds,
    }),
    mcp_session_expiry: mcpSessionExpiryTask({
      agentSessions: deps.agentSessions,
      journal: runtime.journal,
      certifier: runtime.certifier,
      now: () => new Date(),
      log: github.log,
    }),
    github_session_recheck: githubSessionRecheckTask({ sessionHeads: deps.sessionHeads, app: github.app, log: github.log }),
  };
}
