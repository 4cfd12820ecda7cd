import { blobSha, diffTrees, type FakeCommit, type FakeRepos, type FileChange } from './fake-github-repos.js';
import { WEB } from './fake-github-shapes.js';
import { gitHubError, type GitHubReply, type GitHubRoute, type GitHubRouteContext } from './fake-github-route.js';

const CONTENTS_DOCS = 'https://docs.github.com/rest/repos/contents#get-repository-content';

/** Base64 wrapped at 60 characters, as GitHub sends file content. */
function wrappedBase64(text: string): string {
  return (
    (
      Buffer.from(text, 'utf8')
        .toString('base64')
        .match(/.{1,60}/g) ?? []
    ).join('\n') + '\n'
  );
}

function commitJson(base: string, repo: string, commit: FakeCommit, files?: FileChange[]) {
  const author = { name: 'Fake Author', email: 'author@example.com', date: '2024-01-01T00:00:00Z' };
  const tree = blobSha(JSON.stringify([...commit.tree]));
  return {
    sha: commit.sha,
    node_id: Buffer.from(`Commit:${commit.sha}`).toString('base64'),
    url: `${base}/repos/${repo}/commits/${commit.sha}`,
    html_url: `${WEB}/${repo}/commit/${commit.sha}`,
    comments_url: `${base}/repos/${repo}/commits/${commit.sha}/comments`,
    commit: {
      url: `${base}/repos/${repo}/git/commits/${commit.sha}`,
      message: commit.message,
      author,
      committer: author,
      comment_count: 0,
      tree: { sha: tree, url: `${base}/repos/${repo}/git/trees/${tree}` },
    },
    // The author's email belongs to no GitHub account.
    author: null,
    committer: null,
    parents: commit.parent ? [{ sha: commit.parent, url: `${base}/repos/${repo}/commits/${commit.parent}` }] : [],
    ...(files
      ? {
          files: files.map((f) => fileJson(base, repo, commit.sha, f)),
          stats: {
            additions: sum(files, 'additions'),
            deletions: sum(files, 'deletions'),
            total: sum(files, 'additions') + sum(files, 'deletions'),
          },
        }
      : {}),
  };
}

/** A changed file (`diff-entry`) as of commit `sha`. */
function fileJson(base: string, repo: string, sha: string, f: FileChange) {
  return {
    ...f,
    sha: f.sha ?? '0'.repeat(40),
    changes: f.additions + f.deletions,
    blob_url: `${WEB}/${repo}/blob/${sha}/${f.filename}`,
    raw_url: `${WEB}/${repo}/raw/${sha}/${f.filename}`,
    contents_url: `${base}/repos/${repo}/contents/${f.filename}?ref=${sha}`,
  };
}

const sum = (files: FileChange[], key: 'additions' | 'deletions') => files.reduce((n, f) => n + f[key], 0);

function contents(repos: FakeRepos, base: string, { params, query, headers }: GitHubRouteContext): GitHubReply {
  const repo = `${params.owner}/${params.repo}`;
  if (!repos.has(repo)) return gitHubError(404, 'Not Found', CONTENTS_DOCS);
  const ref = query.get('ref') ?? 'HEAD';
  const commit = repos.resolve(repo, ref);
  if (!commit) return gitHubError(404, `No commit found for the ref ${ref}`, CONTENTS_DOCS);
  const path = params.path.replace(/\/$/, '');
  const text = commit.tree.get(path);
  if (text === undefined) {
    const entries = [...commit.tree.keys()].filter((p) => p.startsWith(`${path}/`));
    if (entries.length === 0) return gitHubError(404, 'Not Found', CONTENTS_DOCS);
    const names = [...new Set(entries.map((p) => p.slice(path.length + 1).split('/')[0]))];
    return {
      body: names.map((name) => {
        const entry = `${path}/${name}`;
        const file = commit.tree.get(entry);
        const sha = blobSha(file ?? JSON.stringify(entries.filter((p) => p.startsWith(`${entry}/`))));
        return { ...entryJson(base, repo, ref, entry, sha, file === undefined ? 'dir' : 'file'), size: Buffer.byteLength(file ?? '') };
      }),
    };
  }
  if (/\.raw\b/.test(String(headers.accept))) return { text };
  return {
    body: {
      ...entryJson(base, repo, ref, path, blobSha(text), 'file'),
      encoding: 'base64',
      size: Buffer.byteLength(text),
      content: wrappedBase64(text),
    },
  };
}

/** What GitHub says of every file or directory it lists: name, sha and the URLs to it. */
function entryJson(base: string, repo: string, ref: string, path: string, sha: string, type: 'file' | 'dir') {
  const self = `${base}/repos/${repo}/contents/${path}?ref=${ref}`;
  const git = `${base}/repos/${repo}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha}`;
  const html = `${WEB}/${repo}/${type === 'file' ? 'blob' : 'tree'}/${ref}/${path}`;
  const download = type === 'file' ? `${WEB}/${repo}/raw/${ref}/${path}` : null;
  return {
    type,
    name: path.split('/').pop(),
    path,
    sha,
    url: self,
    git_url: git,
    html_url: html,
    download_url: download,
    _links: { self, git, html },
  };
}

function compare(repos: FakeRepos, base: string, { params }: GitHubRouteContext): GitHubReply {
  const repo = `${params.owner}/${params.repo}`;
  const [baseRef, headRef] = params.basehead.split(/\.{2,3}/);
  const from = baseRef ? repos.resolve(repo, baseRef) : undefined;
  const to = headRef ? repos.resolve(repo, headRef) : undefined;
  if (!from || !to) return gitHubError(404, 'Not Found', 'https://docs.github.com/rest/commits/commits#compare-two-commits');
  const headLine = repos.ancestry(repo, to);
  const baseLine = repos.ancestry(repo, from);
  const mergeBase = headLine.find((c) => baseLine.includes(c)) ?? from;
  const aheadBy = headLine.indexOf(mergeBase);
  const behindBy = baseLine.indexOf(mergeBase);
  const status = aheadBy === 0 && behindBy === 0 ? 'identical' : behindBy === 0 ? 'ahead' : aheadBy === 0 ? 'behind' : 'diverged';
  return {
    body: {
      url: `${base}/repos/${repo}/compare/${params.basehead}`,
      html_url: `${WEB}/${repo}/compare/${params.basehead}`,
      permalink_url: `${WEB}/${repo}/compare/${from.sha}...${to.sha}`,
      diff_url: `${WEB}/${repo}/compare/${params.basehead}.diff`,
      patch_url: `${WEB}/${repo}/compare/${params.basehead}.patch`,
      status,
      ahead_by: aheadBy,
      behind_by: behindBy,
      total_commits: aheadBy,
      base_commit: commitJson(base, repo, from),
      merge_base_commit: commitJson(base, repo, mergeBase),
      commits: headLine
        .slice(0, aheadBy)
        .reverse()
        .map((c) => commitJson(base, repo, c)),
      files: diffTrees(mergeBase.tree, to.tree).map((f) => fileJson(base, repo, to.sha, f)),
    },
  };
}

function commit(repos: FakeRepos, base: string, { params }: GitHubRouteContext): GitHubReply {
  const repo = `${params.owner}/${params.repo}`;
  if (!repos.has(repo)) return gitHubError(404, 'Not Found');
  const found = repos.resolve(repo, params.ref);
  if (!found)
    return gitHubError(422, `No commit found for SHA: ${params.ref}`, 'https://docs.github.com/rest/commits/commits#get-a-commit');
  const parentTree = found.parent ? repos.resolve(repo, found.parent)?.tree : undefined;
  return { body: commitJson(base, repo, found, diffTrees(parentTree ?? new Map(), found.tree)) };
}

/** Repository contents, compare and commit endpoints over the in-memory repositories. */
export function repoRoutes(repos: FakeRepos, apiBase: () => string): GitHubRoute[] {
  return [
    { method: 'GET', pattern: '/repos/{owner}/{repo}/contents/{path+}', handle: (ctx) => contents(repos, apiBase(), ctx) },
    { method: 'GET', pattern: '/repos/{owner}/{repo}/compare/{basehead+}', handle: (ctx) => compare(repos, apiBase(), ctx) },
    { method: 'GET', pattern: '/repos/{owner}/{repo}/commits/{ref}', handle: (ctx) => commit(repos, apiBase(), ctx) },
  ];
}
