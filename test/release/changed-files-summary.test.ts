import { agentChangeFindings } from '../../core/release/agent-change-findings.js';
import type { PullRequestFacts } from '../../core/release/authorship.js';
import { gateSchema } from '../../core/release/gate.js';
import type { ChangedFilesFacts } from '../../core/release/pull-request-files.js';

const HEAD = 'c'.repeat(40);
const alice = { login: 'alice', type: 'User', name: 'alice', email: 'alice@example.com' };

/** A person's pull request as the job stored it; `files` absent as in records read before files were. */
function facts(files?: ChangedFilesFacts): PullRequestFacts {
  return {
    number: 3,
    head_sha: HEAD,
    author: { login: 'alice', type: 'User' },
    assignees: [],
    commits: [{ sha: HEAD, author: alice, committer: alice, coauthors: [] }],
    reviews: [],
    ...(files ? { files } : {}),
  };
}

const block = (pr: PullRequestFacts) =>
  agentChangeFindings(gateSchema.parse({}), HEAD, [], {
    record: { number: 3, status: 'read', reason: null, facts: pr },
    governedCommits: [],
  }).authorship.changed_files;

const file = (path: string) => ({ path, previous_path: null, status: 'modified', additions: 1, deletions: 0 });

describe('the decision’s authorship.changed_files', () => {
  it('counts the files and names the first 20', () => {
    const files = Array.from({ length: 25 }, (_, i) => file(`src/f${i}.ts`));
    expect(block(facts({ status: 'read', reason: null, total: 25, files }))).toEqual({
      count: 25,
      paths: files.slice(0, 20).map((f) => f.path),
      status: 'read',
    });
  });

  it('says when they are not all known: over GitHub’s list (its count), unreadable (no count), or read before shipgate read files', () => {
    expect(block(facts({ status: 'file_limit', reason: 'too many', total: 3500, files: [] }))).toEqual({
      count: 3500,
      paths: [],
      status: 'file_limit',
    });
    expect(block(facts({ status: 'unreadable', reason: 'GitHub answered 502', total: 4, files: [] }))).toEqual({
      count: null,
      paths: [],
      status: 'unreadable',
    });
    expect(block(facts())).toEqual({ count: null, paths: [], status: 'not_read' });
  });
});
