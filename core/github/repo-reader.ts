/** Read access to a repository at a commit, for the repo_* tools. Implemented in app/ over the GitHub REST API. */
export interface RepoReader {
  /** The file's text at `ref`, or null when it does not exist. */
  readFile(repo: string, ref: string, path: string, signal?: AbortSignal): Promise<string | null>;
  /** Files changed between two commits (`base` may be null: then the files of `head`'s own change). */
  listChanges(
    repo: string,
    base: string | null,
    head: string,
    signal?: AbortSignal,
  ): Promise<{ filename: string; status: string; additions: number; deletions: number }[]>;
}
