import type { Task } from 'graphile-worker';
import type { GitHubAppStore } from '../core/github/github-app-store.js';
import { headsToRecheck } from '../core/release/session-coverage.js';
import type { SessionHeadsReader } from '../core/release/session-heads-reader.js';
import type { JobPayloads } from '../db/job-queue.js';

export interface SessionRecheckDeps {
  sessionHeads: SessionHeadsReader;
  app: Pick<GitHubAppStore, 'schedulePublish'>;
  log(event: string, fields: Record<string, unknown>): void;
}

/**
 * github_session_recheck: an agent session covers less than it did (a call denied under a
 * blocking policy, ended non-compliant, cancelled), so the open pull requests whose head it may
 * have covered are evaluated again and their check runs re-posted by the publish job, as a push
 * to their head would (docs/mcp-gateway.md, "Sessions and the commits they produced").
 */
export function githubSessionRecheckTask(deps: SessionRecheckDeps): Task {
  return async (payload) => {
    const { session_id } = payload as JobPayloads['github_session_recheck'];
    const found = await deps.sessionHeads.openHeads(session_id);
    if (!found) return;
    const heads = headsToRecheck(found.session, found.heads);
    for (const head of heads) {
      await deps.app.schedulePublish({ repo_root: found.repo_root, commit_sha: head.head_sha, installation_id: head.installation_id });
    }
    if (heads.length > 0) deps.log('github_session_recheck', { execution_id: session_id, heads: heads.length });
  };
}
