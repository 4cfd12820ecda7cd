import { createHash } from 'node:crypto';

export interface FakeCommit {
  sha: string;
  parent: string | null;
  message: string;
  /** The whole tree at this commit: path -> text. */
  tree: Map<string, string>;
}

export interface FileChange {
  filename: string;
  status: 'added' | 'removed' | 'modified';
  additions: number;
  deletions: number;
  sha: string | null;
}

export interface CommitSpec {
  /** Files changed by this commit: text to write, null to delete. */
  files: Record<string, string | null>;
  /** Defaults to the branch's current head (none for the first commit). */
  parent?: string | null;
  message?: string;
  /** A 40-hex sha to use instead of a generated one. */
  sha?: string;
  /** The branch moved to this commit; default `main`. */
  branch?: string;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** Git's blob id, so `sha` fields look and behave like GitHub's. */
export function blobSha(text: string): string {
  return sha1(`blob ${Buffer.byteLength(text)}\0${text}`);
}

/** Lines added and removed, counted as multisets (close enough to a diff for a fake). */
function lineDelta(before: string, after: string): { additions: number; deletions: number } {
  const remaining = new Map<string, number>();
  for (const line of before ? before.split('\n') : []) remaining.set(line, (remaining.get(line) ?? 0) + 1);
  let additions = 0;
  for (const line of after ? after.split('\n') : []) {
    const left = remaining.get(line) ?? 0;
    if (left > 0) remaining.set(line, left - 1);
    else additions += 1;
  }
  const deletions = [...remaining.values()].reduce((a, b) => a + b, 0);
  return { additions, deletions };
}

export function diffTrees(base: Map<string, string>, head: Map<string, string>): FileChange[] {
  const paths = [...new Set([...base.keys(), ...head.keys()])].sort();
  const changes: FileChange[] = [];
  for (const filename of paths) {
    const before = base.get(filename);
    const after = head.get(filename);
    if (before === after) continue;
    const status = before === undefined ? 'added' : after === undefined ? 'removed' : 'modified';
    changes.push({ filename, status, ...lineDelta(before ?? '', after ?? ''), sha: after === undefined ? null : blobSha(after) });
  }
  return changes;
}

/** In-memory repositories with a linear-or-branching commit history, named `owner/repo` (case-insensitive). */
export class FakeRepos {
  private readonly repos = new Map<string, { commits: Map<string, FakeCommit>; branches: Map<string, string> }>();

  private repo(name: string) {
    const key = name.toLowerCase();
    if (!this.repos.has(key)) this.repos.set(key, { commits: new Map(), branches: new Map() });
    return this.repos.get(key)!;
  }

  has(name: string): boolean {
    return this.repos.has(name.toLowerCase());
  }

  /** Records a commit and returns its sha. */
  commit(name: string, spec: CommitSpec): string {
    const repo = this.repo(name);
    const branch = spec.branch ?? 'main';
    const parent = spec.parent === undefined ? (repo.branches.get(branch) ?? null) : spec.parent;
    const tree = new Map(parent ? this.resolve(name, parent)?.tree : undefined);
    for (const [path, text] of Object.entries(spec.files)) {
      if (text === null) tree.delete(path);
      else tree.set(path, text);
    }
    const message = spec.message ?? `commit ${repo.commits.size + 1}`;
    const sha = spec.sha?.toLowerCase() ?? sha1(JSON.stringify([name, parent, message, [...tree], repo.commits.size]));
    repo.commits.set(sha, { sha, parent, message, tree });
    repo.branches.set(branch, sha);
    return sha;
  }

  /** A commit by full sha, unambiguous sha prefix (7+), branch name or HEAD (= main). */
  resolve(name: string, ref: string): FakeCommit | undefined {
    const repo = this.repos.get(name.toLowerCase());
    if (!repo) return undefined;
    const branchSha = repo.branches.get(ref === 'HEAD' ? 'main' : ref.replace(/^refs\/heads\//, ''));
    if (branchSha) return repo.commits.get(branchSha);
    if (!/^[0-9a-f]{7,40}$/i.test(ref)) return undefined;
    const matches = [...repo.commits.values()].filter((c) => c.sha.startsWith(ref.toLowerCase()));
    return matches.length === 1 ? matches[0] : undefined;
  }

  /** The commits from `commit` back to the root, newest first. */
  ancestry(name: string, commit: FakeCommit): FakeCommit[] {
    const chain: FakeCommit[] = [];
    for (let c: FakeCommit | undefined = commit; c; c = c.parent ? this.resolve(name, c.parent) : undefined) chain.push(c);
    return chain;
  }
}
