import type { RepoReader } from '../../github/repo-reader.js';
import type { ToolContext } from './tool.js';

/** The repository and commit the execution is bound to, with a reader for it; throws (the call's error answer) otherwise. */
export function boundRepository(ctx: Pick<ToolContext, 'execution' | 'repoReader'>): { reader: RepoReader; repo: string; commit: string } {
  const { repo_root: repo, commit_sha: commit } = ctx.execution;
  if (!repo || !commit) throw new Error('this execution is not bound to a repository and commit (repo_root, commit_sha)');
  if (!ctx.repoReader) throw new Error('no repository access is configured on this server');
  return { reader: ctx.repoReader, repo, commit };
}
