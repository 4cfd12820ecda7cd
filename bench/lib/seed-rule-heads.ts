import type { Knex } from 'knex';
import { gateDigest, gateSchema } from '../../core/release/gate.js';
import { PULL_REQUEST_FILE_LIST_LIMIT } from '../../core/release/pull-request-files.js';
import { BENCH_GATE, commitRefs, HISTORY } from './seed-release-history.js';

/** How many pull request heads the rules bench polls, and how many rules their gate holds. */
export const RULE_HEADS = { heads: 200, rules: 20, files: PULL_REQUEST_FILE_LIST_LIMIT };

/**
 * Commit numbers of the heads: 6, 16, 26, ... so their repositories (bench/repo-6, -16, ..., -96) are none of those
 * the plain decision polls (commit numbers 1, 11, 21, ...: bench/repo-1, -11, ...), whose gate stays without rules.
 */
const headNumbers = () => Array.from({ length: RULE_HEADS.heads }, (_, i) => 6 + 10 * i).filter((n) => n <= HISTORY.commits);

/**
 * Twenty rules as a platform team writes them (docs/release-gate.md, "Rules"): by area of the tree, with ignores,
 * base branches, labels, approvals from teams, users, a permission or code owners, and checks and evidence; most apply
 * to the seeded pull requests, some are met and some are not.
 */
export const RULES_BENCH_GATE = gateSchema.parse({
  ...BENCH_GATE,
  rules: Array.from({ length: RULE_HEADS.rules }, (_, i) => ({
    name: `area ${i}`,
    if: {
      paths: [`src/module-${i}/**`, `packages/*/module-${i}/**/*.ts`],
      ...(i % 3 === 0 ? { paths_ignore: [`src/module-${i}/**/*.md`, '**/README.md'] } : {}),
      ...(i % 4 === 0 ? { base_branches: ['main', 'release/*'] } : {}),
      ...(i % 5 === 0 ? { labels: ['needs-review', 'infra'] } : {}),
    },
    require: {
      approvals: 1 + (i % 2),
      approvers:
        i === 7
          ? { codeowners: true }
          : i % 3 === 0
            ? { teams: ['acme/sre'] }
            : i % 3 === 1
              ? { users: ['ana', 'bob'] }
              : { permission: 'maintain' },
      checks: i % 2 === 0 ? ['ci/test'] : [],
      evidence: i % 5 === 0 ? ['sbom'] : [],
    },
  })),
});

/** 3,000 changed files spread over the rules' areas, with renames (which count under both names). */
function changedFiles() {
  return Array.from({ length: RULE_HEADS.files }, (_, i) => {
    const path = i % 10 === 9 ? `docs/guide-${i}.md` : `src/module-${i % (RULE_HEADS.rules + 5)}/sub-${i % 7}/file-${i}.ts`;
    const renamed = i % 50 === 0;
    return {
      path,
      previous_path: renamed ? `old/${path}` : null,
      status: renamed ? 'renamed' : 'modified',
      additions: i % 40,
      deletions: i % 13,
    };
  });
}

/** A CODEOWNERS of 60 lines, as a larger repository keeps one. */
const CODEOWNERS = [
  '# Code owners',
  '* @acme/platform',
  ...Array.from({ length: 59 }, (_, i) => `/src/module-${i % 25}/sub-${i % 7}/ @acme/sre @ana`),
].join('\n');

/** A person's pull request at `sha` with its files, approved by two independent maintainers. */
export function ruleHeadFacts(number: number, sha: string) {
  const person = (login: string) => ({ login, type: 'User', name: login, email: `${login}@example.com` });
  const review = (id: number, login: string) => ({
    id,
    login,
    type: 'User',
    state: 'APPROVED',
    commit_id: sha,
    submitted_at: new Date().toISOString(),
    permission: 'maintain',
  });
  return {
    number,
    head_sha: sha,
    author: { login: 'dev', type: 'User' },
    assignees: [],
    commits: [{ sha, author: person('dev'), committer: person('dev'), coauthors: [] }],
    reviews: [review(1, 'ana'), review(2, 'bob')],
    base_ref: 'main',
    labels: ['needs-review'],
    files: { status: 'read', reason: null, total: RULE_HEADS.files, files: changedFiles() },
    codeowners: { status: 'read', path: '.github/CODEOWNERS', text: CODEOWNERS },
    teams: { 'acme/sre': ['ana', 'bob'], 'acme/platform': ['carol'] },
  };
}

/**
 * Seeds the rules bench directly, as the App's job would have stored it (the authorship facts of each head, files
 * included) and a second gate version with 20 rules for the heads' repositories, through the tables' own triggers
 * so the decision's cache sees the change. Returns the heads to poll.
 */
export async function seedRuleHeads(db: Knex): Promise<{ repo: string; sha: string }[]> {
  const heads = await commitRefs(db, headNumbers());
  const repos = [...new Set(heads.map((h) => h.repo))];
  await db.raw(
    `INSERT INTO gate_versions (repo_root, version, digest, gate, source) SELECT r, 2, ?, ?::jsonb, 'api' FROM unnest(?::text[]) r`,
    [gateDigest(RULES_BENCH_GATE), JSON.stringify(RULES_BENCH_GATE), repos],
  );
  for (const [i, head] of heads.entries()) {
    await db.raw(
      `INSERT INTO pull_request_authorship (repo_root, commit_sha, number, status, facts, commit_shas) VALUES (?, ?, ?, 'read', ?::jsonb, ARRAY[?])`,
      [head.repo, head.sha, 1000 + i, JSON.stringify(ruleHeadFacts(1000 + i, head.sha)), head.sha],
    );
  }
  await db.raw('VACUUM (ANALYZE) pull_request_authorship');
  return heads;
}
