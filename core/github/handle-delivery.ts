import { recordCheckRun } from '../release/record-evidence.js';
import type { ReleasePorts } from '../release/release-ports.js';
import type { AuthorshipStore } from './authorship-store.js';
import type { CommitArrivalStore } from './commit-arrival-store.js';
import type { DeliveryIntent } from './delivery-intent.js';
import { acceptDeploymentRequest, reviewWaitingDeployments } from './deployment-deliveries.js';
import type { DeploymentStore } from './deployment-store.js';
import type { GitHubAppStore } from './github-app-store.js';
import type { GitHubAccess } from './github-port.js';
import { parseMergeQueueRef } from './merge-queue-ref.js';
import { mayRecheck } from './recheck-command.js';

export interface DeliveryDeps {
  release: ReleasePorts;
  app: GitHubAppStore;
  access: GitHubAccess;
  /** Deployment protection requests (recorded here, answered by their own job). */
  deployments: DeploymentStore;
  /** Pull request authorship: asked for here, read by its own job. */
  authorship: AuthorshipStore;
  /** When pushes brought commits to branches (agent sessions cover commits by it). */
  arrivals: CommitArrivalStore;
  log(event: string, fields: Record<string, unknown>): void;
}

/** A pull request as the App recorded it, else as GitHub has it (then recorded); null when GitHub has none. */
async function pullRequestOf(deps: DeliveryDeps, intent: DeliveryIntent, number: number, receivedAt: Date) {
  const recorded = await deps.app.pullRequest(intent.repo_root, number);
  if (recorded) return recorded;
  const repo = await deps.access.repository(intent.repo_root, intent.installation_id);
  const pr = repo ? await repo.pullRequest(number) : null;
  if (pr) await deps.app.recordPullRequest({ ...pr, repo_root: intent.repo_root, installation_id: intent.installation_id }, receivedAt);
  return pr;
}

/**
 * Does what a claimed delivery asks: records what it reports (pull request heads, check runs as
 * evidence, merge groups) and schedules an evaluation of each commit it concerns. Posting is the
 * publish job's, so many deliveries about one commit coalesce into one evaluation.
 */
export async function handleDelivery(deps: DeliveryDeps, deliveryId: string, intent: DeliveryIntent, receivedAt: Date): Promise<void> {
  const { app } = deps;
  const target = { repo_root: intent.repo_root, installation_id: intent.installation_id };
  // What an OIDC token's repository_id and repository_owner_id must match (docs/operations.md, "Security").
  if ('repository_ids' in intent && intent.repository_ids) await app.recordRepositoryIds(intent.repo_root, intent.repository_ids);
  // A refusal by GitHub while posting is recorded on the delivery that asked for the post.
  const publish = (sha: string) => app.schedulePublish({ ...target, commit_sha: sha, delivery_id: deliveryId });
  // Who made the pull request, read by a job (never inside a decision), which then schedules the
  // head's evaluation: one post per event (docs/release-gate.md, "Agents on pull requests").
  const readAuthorship = (number: number, sha: string) =>
    deps.authorship.requestRead({ ...target, number, head_sha: sha, delivery_id: deliveryId });
  switch (intent.kind) {
    case 'pull_request': {
      const { number, head_sha, head_ref, base_ref, state } = intent;
      const before = await app.pullRequest(intent.repo_root, number);
      await app.recordPullRequest({ ...target, number, head_sha, head_ref, base_ref, state }, new Date(intent.observed_at ?? receivedAt));
      if (intent.evaluate) await readAuthorship(number, head_sha);
      // A head this pull request left (closed, or its head moved) that one other open pull request still has is judged
      // by that one's facts again, which the stored authorship may not hold (docs/release-gate.md, "One pull request per head").
      const left = new Set([
        ...(state === 'closed' ? [head_sha] : []),
        ...(before && before.head_sha !== head_sha ? [before.head_sha] : []),
      ]);
      for (const sha of left) {
        const open = await app.openPullRequestsAt(intent.repo_root, sha);
        if (open.length === 1 && open[0].number !== number) await readAuthorship(open[0].number, sha);
      }
      return;
    }
    case 'pull_request_review':
      await readAuthorship(intent.number, intent.head_sha);
      return;
    case 'check_run': {
      // Dated no later than its receipt: a creator sets completed_at freely (docs/release-gate.md, "Check runs dated in the future").
      await recordCheckRun(
        deps.release.store,
        { ...target, commit_sha: intent.head_sha, ref: intent.head_branch, ...intent.check },
        receivedAt,
      );
      if (intent.check.status === 'completed') await reviewWaitingDeployments(deps.deployments, intent.repo_root, intent.head_sha);
      // Only commits shipgate reports on: the head of an open pull request, or a merge group.
      const concerned =
        (await app.openPullRequestsAt(intent.repo_root, intent.head_sha)).length > 0 ||
        (await app.mergeGroup(intent.repo_root, intent.head_sha)) !== null;
      if (concerned) await publish(intent.head_sha);
      return;
    }
    case 'deployment_protection_rule':
      await acceptDeploymentRequest(deps.deployments, intent, receivedAt, deliveryId);
      return;
    case 'recheck':
      await publish(intent.head_sha);
      return;
    case 'push': {
      const { repo_root, branch, shas } = intent;
      await deps.arrivals.recordPush({ repo_root, branch, shas, delivery_id: deliveryId }, receivedAt);
      // A head already evaluated before its push was recorded is evaluated again.
      if ((await app.openPullRequestsAt(repo_root, intent.head_sha)).length > 0) await publish(intent.head_sha);
      return;
    }
    case 'merge_group': {
      // The group carries the agent rules of the pull request its branch names: record that pull
      // request's head, and read who made it (again: reviews may have changed since).
      const ref = parseMergeQueueRef(intent.head_ref);
      const pr = ref ? await pullRequestOf(deps, intent, ref.number, receivedAt) : null;
      await app.recordMergeGroup({
        ...target,
        head_sha: intent.head_sha,
        head_ref: intent.head_ref,
        base_ref: intent.base_ref,
        pull_request_number: ref?.number ?? null,
        pull_request_head_sha: pr?.head_sha ?? null,
      });
      if (pr) await readAuthorship(pr.number, pr.head_sha);
      await publish(intent.head_sha);
      return;
    }
    case 'recheck_command': {
      const repo = await deps.access.repository(intent.repo_root, intent.installation_id);
      if (!repo) {
        deps.log('github_recheck_skipped', { repo_root: intent.repo_root, number: intent.number, reason: await deps.access.whyNot() });
        return;
      }
      const permission = await repo.permissionOf(intent.user);
      if (!mayRecheck(permission)) {
        deps.log('github_recheck_refused', { repo_root: intent.repo_root, number: intent.number, user: intent.user, permission });
        return;
      }
      const pr = await repo.pullRequest(intent.number);
      if (!pr || pr.state !== 'open') return;
      await app.recordPullRequest({ ...target, ...pr }, receivedAt);
      await readAuthorship(pr.number, pr.head_sha);
      return;
    }
  }
}
