import type { Task } from 'graphile-worker';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import type { JobPayloads } from '../db/job-queue.js';
import { createGitHubAppStore } from '../db/stores/postgres-github-app-store.js';
import { createDeploymentStore } from '../db/stores/postgres-deployment-store.js';
import { octokitDeploymentReviewer } from '../app/octokit-deployment-reviewer.js';
import { githubDeploymentReviewTask } from './github-deployment-review-task.js';
import { octokitRecoveryGitHub } from '../app/octokit-recovery-github.js';
import { createRecoveryStore } from '../db/stores/recovery-store.js';
import { githubDeliveryRecoveryTask } from './github-delivery-recovery-task.js';
import { githubDeliveryTask } from './github-delivery-task.js';
import { createDeliveryLog } from '../db/stores/postgres-delivery-log.js';
import { githubAuthorshipTask } from './github-authorship-task.js';
import { createAuthorshipStore } from '../db/stores/postgres-authorship-store.js';
import { createCommitArrivalStore } from '../db/stores/postgres-commit-arrival-store.js';
import { githubPublishTask } from './github-publish-task.js';
import { mcpSessionExpiryTask } from './mcp-session-expiry-task.js';
import { githubSessionRecheckTask } from './github-session-recheck-task.js';
import { runExecutionTask } from './run-execution-task.js';
import { runWorkflowTask } from './run-workflow-task.js';
import type { WorkerDeps } from './worker-deps.js';

/**
 * Every job type the service queues, with its handler. Typed by db/job-queue.ts's JobPayloads,
 * so a job type added there without a handler here fails the typecheck.
 */
export function buildTaskList(runtime: RuntimeDeps, deps: WorkerDeps): Record<keyof JobPayloads, Task> {
  const github = {
    release: deps.release,
    gateFiles: deps.gateFiles,
    app: createGitHubAppStore(deps.db),
    access: deps.github,
    deployments: createDeploymentStore(deps.db),
    authorship: createAuthorshipStore(deps.db),
    arrivals: createCommitArrivalStore(deps.db),
    // The App in force when the job runs (refreshed first, below): one registered from the studio needs no restart.
    get reviewer() {
      return octokitDeploymentReviewer(deps.github.app);
    },
    publicUrl: deps.config.publicUrl,
    log: (event: string, fields: Record<string, unknown>) => deps.logger.info({ event, ...fields }, event),
  };
  return {
    run_execution: runExecutionTask(runtime),
    github_delivery: githubDeliveryTask({ ...github, deliveries: createDeliveryLog(deps.db) }),
    github_publish: githubPublishTask(github),
    github_authorship: githubAuthorshipTask(github),
    run_workflow: runWorkflowTask(runtime, deps),
    github_deployment_review: afterRefresh(deps, githubDeploymentReviewTask(github)),
    github_delivery_recovery: afterRefresh(
      deps,
      githubDeliveryRecoveryTask({
        ...github,
        get github() {
          return deps.github.app && octokitRecoveryGitHub(deps.github.app);
        },
        recovery: createRecoveryStore(deps.db),
        intervalSeconds: deps.config.github.deliveryRecoverySeconds,
      }),
    ),
    mcp_session_expiry: mcpSessionExpiryTask({
      agentSessions: deps.agentSessions,
      journal: runtime.journal,
      certifier: runtime.certifier,
      now: () => new Date(),
      log: github.log,
    }),
    github_session_recheck: githubSessionRecheckTask({ db: deps.db, app: github.app, log: github.log }),
  };
}

/** Runs `task` once GitHub access has read the App's credentials in force (docs/github-app.md, "Where the App's credentials come from"). */
function afterRefresh(deps: WorkerDeps, task: Task): Task {
  return async (payload, helpers) => {
    await deps.github.refresh();
    return task(payload, helpers);
  };
}
