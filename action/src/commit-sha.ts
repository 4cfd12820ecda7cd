import fs from 'node:fs';

interface EventPayload {
  pull_request?: { head?: { sha?: string } };
  merge_group?: { head_sha?: string };
}

function readEvent(path: string | undefined): EventPayload {
  if (!path) return {};
  try {
    return JSON.parse(fs.readFileSync(path, 'utf8')) as EventPayload;
  } catch {
    return {};
  }
}

/**
 * The commit the gate should judge. On pull_request events GITHUB_SHA is the merge commit of
 * refs/pull/N/merge, which no check run or evidence names: use the PR head from the event
 * payload; in a merge queue, the merge group's head; otherwise GITHUB_SHA.
 */
export function defaultCommitSha(env: NodeJS.ProcessEnv): string | undefined {
  const event = readEvent(env.GITHUB_EVENT_PATH);
  return event.pull_request?.head?.sha ?? event.merge_group?.head_sha ?? env.GITHUB_SHA;
}
