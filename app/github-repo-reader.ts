import type { RepoReader } from '../core/github/repo-reader.js';
import { parseRepoRoot } from '../core/release/github-identifiers.js';
import { GITHUB_RAW_MEDIA_TYPE, type RestOctokit } from './create-probot.js';
import { statusOf } from './github-errors.js';

type ChangedFile = Awaited<ReturnType<RepoReader['listChanges']>>[number];

/** A short message for the tool's answer; octokit's own errors carry the request, which is not for the model. */
function describeFailure(error: unknown, what: string, signal: AbortSignal | undefined): Error {
  // octokit reports an aborted fetch as a 500, so the signal is the reliable witness.
  if (signal?.aborted) return new Error(`${what}: aborted`);
  const status = statusOf(error);
  const detail = (error as Error).message?.split(' - ')[0] ?? String(error);
  return new Error(status ? `${what}: GitHub answered ${status} ${detail}` : `${what}: ${detail}`);
}

function toChange(file: { filename: string; status: string; additions: number; deletions: number }): ChangedFile {
  return { filename: file.filename, status: file.status, additions: file.additions, deletions: file.deletions };
}

/**
 * The RepoReader port over the GitHub REST API, with the octokit `octokitFor` picks per repository
 * (GitHubAppAccess.readerOctokit: the App's installation token where the App is installed, else
 * GITHUB_TOKEN). Change lists hold at most the first 300 files, the REST API's limit for one
 * compare or commit response.
 */
export function createGitHubRepoReader(octokitFor: (repoRoot: string) => Promise<RestOctokit | null>): RepoReader {
  async function clientFor(repo: string): Promise<RestOctokit> {
    const octokit = await octokitFor(repo.toLowerCase());
    if (!octokit) throw new Error(`The GitHub App is not installed on ${repo} and GITHUB_TOKEN is not set: no access to it.`);
    return octokit;
  }

  async function readFile(repo: string, ref: string, path: string, signal?: AbortSignal): Promise<string | null> {
    const octokit = await clientFor(repo);
    try {
      const { data } = await octokit.rest.repos.getContent({
        ...parseRepoRoot(repo),
        path,
        ref,
        headers: { accept: GITHUB_RAW_MEDIA_TYPE },
        request: { signal },
      });
      const raw: unknown = data;
      if (typeof raw === 'string') return raw;
      if (raw instanceof ArrayBuffer) return new TextDecoder().decode(raw);
      return null; // a directory listing: there is no file at this path
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw describeFailure(error, `reading ${path} at ${ref}`, signal);
    }
  }

  async function listChanges(repo: string, base: string | null, head: string, signal?: AbortSignal): Promise<ChangedFile[]> {
    const octokit = await clientFor(repo);
    try {
      if (base === null) {
        const { data } = await octokit.rest.repos.getCommit({ ...parseRepoRoot(repo), ref: head, request: { signal } });
        return (data.files ?? []).map(toChange);
      }
      const { data } = await octokit.rest.repos.compareCommits({ ...parseRepoRoot(repo), base, head, request: { signal } });
      return (data.files ?? []).map(toChange);
    } catch (error) {
      throw describeFailure(error, base === null ? `listing the changes of ${head}` : `comparing ${base}...${head}`, signal);
    }
  }

  return { readFile, listChanges };
}
