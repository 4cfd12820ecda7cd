import type { RepoReader } from '../../github/repo-reader.js';
import type { ToolContext } from './tool.js';

/** A repository tool's answer where the server can read no repository (neither a GitHub App nor GITHUB_TOKEN). */
export const NO_REPOSITORY_ACCESS = 'no repository access is configured on this server';

/** The repository and commit the execution is bound to, with a reader for it; throws (the call's error answer) otherwise. */
export function boundRepository(ctx: Pick<ToolContext, 'execution' | 'repoReader'>): { reader: RepoReader; repo: string; commit: string } {
  const { repo_root: repo, commit_sha: commit } = ctx.execution;
  if (!repo || !commit) throw new Error('this execution is not bound to a repository and commit (repo_root, commit_sha)');
  if (!ctx.repoReader) throw new Error(NO_REPOSITORY_ACCESS);
  return { reader: ctx.repoReader, repo, commit };
}
