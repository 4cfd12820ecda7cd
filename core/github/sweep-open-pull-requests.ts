import { RELEASE_GATE_CHECK_NAME } from '../release/record-evidence.js';
import type { AuthorshipStore } from './authorship-store.js';
import type { GitHubAppStore } from './github-app-store.js';
import type { GitHubAccess } from './github-port.js';
import type { RecoveryGitHub } from './recovery-port.js';

export interface SweepDeps {
  github: RecoveryGitHub;
  app: GitHubAppStore;
  access: GitHubAccess;
  /** A swept head's authorship is read first; that job queues its evaluation. */
  authorship: AuthorshipStore;
  /** Waits between GitHub calls, so a sweep never bursts. */
  pace(): Promise<void>;
  log(event: string, fields: Record<string, unknown>): void;
}

/**
 * The open pull requests of every repository the App is installed on whose head shipgate has
 * not heard of (its pull_request delivery was lost) and that carries no check run of ours get
 * recorded, their authorship read and an evaluation queued (the github_publish job posts it). Heads already recorded
 * from a delivery are left to that delivery's jobs, which keeps the sweep to about one request per
 * repository. An installation that has used half of its rate limit is left for the next run.
 * Returns how many heads were queued.
 */
export async function sweepOpenPullRequests(deps: SweepDeps): Promise<number> {
  let queued = 0;
  for (const installationId of await deps.github.installations()) {
    for (const repoRoot of await deps.github.repositories(installationId)) {
      if (deps.github.rateLimitLow(installationId)) {
        deps.log('github_sweep_paused', { installation_id: installationId, reason: 'half of the rate limit is used' });
        break;
      }
      await deps.pace();
      for (const pr of await deps.github.openPullRequests(installationId, repoRoot)) {
        const known = await deps.app.pullRequest(repoRoot, pr.number);
        if (known?.state === 'open' && known.head_sha === pr.head_sha) continue;
        const target = { repo_root: repoRoot, installation_id: installationId };
        const { updated_at: updatedAt, ...head } = pr;
        await deps.app.recordPullRequest({ ...target, ...head }, new Date(updatedAt));
        const repo = await deps.access.repository(repoRoot, installationId);
        await deps.pace();
        if (!repo || (await repo.listCheckRuns(pr.head_sha, RELEASE_GATE_CHECK_NAME)).length > 0) continue;
        // Who made it is read first (docs/release-gate.md, "Agents on pull requests"); that job queues the evaluation.
        await deps.authorship.requestRead({ ...target, number: pr.number, head_sha: pr.head_sha, delivery_id: null });
        deps.log('github_sweep_queued', { repo_root: repoRoot, number: pr.number, commit_sha: pr.head_sha });
        queued += 1;
      }
    }
  }
  return queued;
}
