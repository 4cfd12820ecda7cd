import { Octokit } from '@octokit/rest';
import type { RepoReader } from '../core/github/repo-reader.js';

export const GITHUB_API_BASE_URL = 'https://api.github.com';

/** GHE_HOST / GHE_PROTOCOL point every GitHub call at GitHub Enterprise (or a test server), as Probot does. */
export function githubApiBaseUrl(github: { gheHost?: string; gheProtocol?: 'http' | 'https' }): string {
  return github.gheHost ? `${github.gheProtocol ?? 'https'}://${github.gheHost}/api/v3` : GITHUB_API_BASE_URL;
}

type ChangedFile = Awaited<ReturnType<RepoReader['listChanges']>>[number];

function splitRepo(repo: string): { owner: string; repo: string } {
  const [owner, name, ...rest] = repo.split('/');
  if (!owner || !name || rest.length > 0) throw new Error(`Repository must be named owner/repo, got "${repo}".`);
  return { owner, repo: name };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

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

/** The REST methods the reader calls, as both @octokit/rest and Probot's octokit offer them. */
type ReaderOctokit = Pick<Octokit, 'rest'>;

export interface RepoReaderOptions {
  /** GITHUB_TOKEN; used for repositories the App is not installed on. */
  token?: string;
  baseUrl: string;
  /** The App's installation octokit for a repository, or null when the App is not installed there. */
  installationOctokit?: (repo: string) => Promise<ReaderOctokit | null>;
}

/**
 * The RepoReader port over the GitHub REST API: through the App's installation token when the App
 * is installed on the repository, else GITHUB_TOKEN. Change lists hold at most the first 300 files,
 * the REST API's limit for one compare or commit response.
 */
export function createGitHubRepoReader({ token, baseUrl, installationOctokit }: RepoReaderOptions): RepoReader {
  const tokenOctokit = new Octokit({
    auth: token,
    baseUrl,
    userAgent: 'shipgate',
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });

  async function clientFor(repo: string): Promise<ReaderOctokit> {
    const installed = installationOctokit ? await installationOctokit(repo.toLowerCase()) : null;
    if (installed) return installed;
    if (!token) throw new Error(`The GitHub App is not installed on ${repo} and GITHUB_TOKEN is not set: no access to it.`);
    return tokenOctokit;
  }

  async function readFile(repo: string, ref: string, path: string, signal?: AbortSignal): Promise<string | null> {
    const octokit = await clientFor(repo);
    try {
      // The raw media type returns the text itself, also for files over the 1 MB JSON limit.
      const { data } = await octokit.rest.repos.getContent({
        ...splitRepo(repo),
        path,
        ref,
        mediaType: { format: 'raw' },
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
        const { data } = await octokit.rest.repos.getCommit({ ...splitRepo(repo), ref: head, request: { signal } });
        return (data.files ?? []).map(toChange);
      }
      const { data } = await octokit.rest.repos.compareCommits({ ...splitRepo(repo), base, head, request: { signal } });
      return (data.files ?? []).map(toChange);
    } catch (error) {
      throw describeFailure(error, base === null ? `listing the changes of ${head}` : `comparing ${base}...${head}`, signal);
    }
  }

  return { readFile, listChanges };
}
