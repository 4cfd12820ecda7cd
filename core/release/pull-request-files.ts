/**
 * What a pull request changes, read from GitHub by the `github_authorship` job with the rest of
 * its facts and stored per head (docs/release-gate.md, "Rules"). Rules, conditional checks and
 * protected paths are judged from these stored facts, never from GitHub inside a decision.
 */

/** GitHub lists at most this many files of a pull request (`GET /pulls/{n}/files`). */
export const PULL_REQUEST_FILE_LIST_LIMIT = 3000;

/** One changed file as GitHub lists it; a rename carries its old name, and counts under both. */
export interface ChangedFile {
  path: string;
  /** The name before a rename (`status: renamed`), else null. */
  previous_path: string | null;
  /** added, removed, modified, renamed, copied, changed, unchanged (GitHub's words). */
  status: string;
  additions: number;
  deletions: number;
}

/**
 * `read`: every file is listed; `file_limit`: the pull request changes more files than GitHub
 * lists; `unreadable`: GitHub refused or failed. Only `read` lets a rule that needs files ship.
 */
export type ChangedFilesStatus = 'read' | 'file_limit' | 'unreadable';

export interface ChangedFilesFacts {
  status: ChangedFilesStatus;
  /** Why the list is incomplete, in words people read (null when read). */
  reason: string | null;
  /** How many files GitHub says the pull request changes. */
  total: number;
  files: ChangedFile[];
}

/** Every path a change touches: each file's name, and a renamed file's old name too. */
export function touchedPaths(files: readonly ChangedFile[]): string[] {
  let paths = touched.get(files);
  if (!paths) {
    paths = [];
    for (const f of files) {
      paths.push(f.path);
      if (f.previous_path && f.previous_path !== f.path) paths.push(f.previous_path);
    }
    Object.freeze(paths);
    touched.set(files, paths);
  }
  return paths;
}

/**
 * Each stored file list's paths, computed once (the decision caches a commit's facts, and every rule asks for them);
 * frozen, as callers share it.
 */
const touched = new WeakMap<readonly ChangedFile[], string[]>();

/** Where GitHub looks for CODEOWNERS, in its order: the first found is the one in force. */
export const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

/** The base branch's CODEOWNERS file, as the job found it (`.github/`, root, `docs/`, GitHub's order). */
export type CodeownersFacts =
  { status: 'read'; path: string; text: string } | { status: 'absent' } | { status: 'unreadable'; reason: string };
