import type { AuthorshipRecord, PullRequestFacts, ReviewFacts } from '../../core/release/authorship.js';
import { isWaitable } from '../../core/release/blocker.js';
import { evaluateDecision } from '../../core/release/evaluate-decision.js';
import { gateSchema } from '../../core/release/gate.js';
import type { ChangedFile } from '../../core/release/pull-request-files.js';
import { check, evidence, NOW } from './support/release-fixtures.js';
import { reviewsOf } from './support/review-facts.js';

const HEAD = 'c'.repeat(40);
const person = (login: string) => ({ login, type: 'User', name: login, email: `${login}@example.com` });
const file = (path: string, over: Partial<ChangedFile> = {}): ChangedFile => ({
  path,
  previous_path: null,
  status: 'modified',
  additions: 1,
  deletions: 0,
  ...over,
});

const review = reviewsOf(HEAD);

/** alice's pull request (or Copilot's) changing `paths`, with its reviews and the teams read with it. */
function pr(paths: string[], reviews: ReviewFacts[], over: Partial<PullRequestFacts> = {}): PullRequestFacts {
  return {
    number: 12,
    head_sha: HEAD,
    author: { login: 'alice', type: 'User' },
    assignees: [],
    commits: [{ sha: HEAD, author: person('alice'), committer: person('alice'), coauthors: [] }],
    reviews,
    base_ref: 'main',
    labels: [],
    files: { status: 'read', reason: null, total: paths.length, files: paths.map((p) => file(p)) },
    codeowners: { status: 'absent' },
    teams: { 'acme/sre': ['ana', 'sam', 'tom'] },
    ...over,
  };
}

const copilot = (paths: string[], reviews: ReviewFacts[], over: Partial<PullRequestFacts> = {}) =>
  pr(paths, reviews, {
    author: { login: 'Copilot', type: 'Bot' },
    assignees: ['bob'],
    commits: [
      {
        sha: HEAD,
        author: { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' },
        committer: { login: 'web-flow', type: 'User', name: 'GitHub', email: 'noreply@github.com' },
        coauthors: [],
      },
    ],
    ...over,
  });

const record = (facts: PullRequestFacts): AuthorshipRecord => ({ number: facts.number, status: 'read', reason: null, facts });
/** A person's pull request needs nothing of the agent rules; only the rules under test decide. */
const decide = (gateFields: object, facts: PullRequestFacts | AuthorshipRecord) =>
  evaluateDecision(gateSchema.parse(gateFields), evidence([check('build')]), [], NOW, {
    sha: HEAD,
    authorship: { record: 'status' in facts ? facts : record(facts), governedCommits: [HEAD] },
  });

const sre = {
  rules: [{ name: 'infra needs SRE', if: { paths: ['infra/**'] }, require: { approvals: 2, approvers: { teams: ['acme/sre'] } } }],
};

describe('a rule by changed paths: infra needs two SRE approvals (acceptance 1)', () => {
  it('one SRE approval: NO_SHIP naming the rule, the file and what is missing', () => {
    const result = decide(sre, pr(['infra/main.tf', 'README.md'], [review('ana', 'APPROVED'), review('zed', 'APPROVED')]));
    expect(result.decision).toBe('NO_SHIP');
    expect(result.blockers).toEqual([
      expect.objectContaining({
        code: 'rule_not_met',
        component: 'rule:infra needs SRE',
        reason: expect.stringContaining('needs 2 approvals from acme/sre; has 1: @ana'),
      }),
    ]);
    expect(result.blockers[0].reason).toContain('infra/main.tf');
    expect(result.blockers[0].reason).not.toContain('README.md');
    expect(isWaitable(result.blockers[0])).toBe(false);
    expect(result.authorship.rules).toEqual([
      {
        name: 'infra needs SRE',
        met: false,
        triggered_by: ['infra/main.tf'],
        missing: 'needs 2 approvals from acme/sre; has 1: @ana',
        disapproved_by: [],
        approvals: [
          { login: 'ana', counted: true, reason: null },
          { login: 'zed', counted: false, reason: 'not_an_approver' },
        ],
      },
    ]);
    expect(result.explanation).toContainEqual(expect.objectContaining({ policy: 'rules', satisfied: false }));
  });

  it('two SRE approvals: it ships, the rule shown as met', () => {
    const result = decide(sre, pr(['infra/main.tf'], [review('ana', 'APPROVED'), review('sam', 'APPROVED')]));
    expect(result).toMatchObject({ decision: 'SHIP', blockers: [] });
    expect(result.authorship.rules).toEqual([expect.objectContaining({ name: 'infra needs SRE', met: true, missing: null })]);
  });

  it('a pull request touching only docs/ is unaffected, and no rule is shown', () => {
    const result = decide(sre, pr(['docs/guide.md'], []));
    expect(result).toMatchObject({ decision: 'SHIP', blockers: [] });
    expect(result.authorship.rules).toBeUndefined();
  });

  it('an SRE who is the pull request’s author or a committer does not count, nor one approving an older head', () => {
    const facts = pr(['infra/main.tf'], [review('ana', 'APPROVED'), review('tom', 'APPROVED', { commit_id: 'd'.repeat(40) })], {
      author: { login: 'sam', type: 'User' },
    });
    const result = decide(sre, facts);
    expect(result.authorship.rules?.[0].approvals).toEqual([
      { login: 'ana', counted: true, reason: null },
      { login: 'tom', counted: false, reason: 'stale' },
    ]);
    expect(result.decision).toBe('NO_SHIP');
  });

  it('a rename into infra/ counts under both names; paths_ignore leaves a path out', () => {
    const renamed = pr([], [], {
      files: {
        status: 'read',
        reason: null,
        total: 1,
        files: [file('ops/main.tf', { previous_path: 'infra/main.tf', status: 'renamed' })],
      },
    });
    expect(decide(sre, renamed).blockers[0]).toMatchObject({ code: 'rule_not_met' });
    const ignoring = { rules: [{ ...sre.rules[0], if: { paths: ['infra/**'], paths_ignore: ['*.md'] } }] };
    expect(decide(ignoring, pr(['infra/README.md'], [])).decision).toBe('SHIP');
    expect(decide(ignoring, pr(['infra/README.md', 'infra/x.tf'], [])).decision).toBe('NO_SHIP');
  });

  it('members of a team shipgate could not read do not count, and the rule says why', () => {
    const result = decide(sre, pr(['infra/main.tf'], [review('ana', 'APPROVED')], { teams: { 'acme/sre': null } }));
    expect(result.authorship.rules?.[0].missing).toBe(
      'needs 2 approvals from acme/sre; has none; the members of acme/sre are not known to shipgate (the App needs members: read)',
    );
  });
});

describe('conditions: authored_by, base_branches, labels', () => {
  const rule = (cond: object) => ({ rules: [{ name: 'two people', if: cond, require: { approvals: 2 } }] });

  it('authored_by: agent applies to Copilot’s pull request only', () => {
    const gate = { ...rule({ authored_by: 'agent' }), agent_changes: { required_human_approvals: 0, require_governed_work: false } };
    expect(decide(gate, pr(['a.ts'], [])).decision).toBe('SHIP');
    expect(decide(gate, copilot(['a.ts'], [review('carol', 'APPROVED')])).authorship.rules?.[0].missing).toBe(
      'needs 2 approvals from an independent person with write; has 1: @carol',
    );
  });

  it('base_branches are globs of the branch name; labels need one of them', () => {
    expect(decide(rule({ base_branches: ['release/*'] }), pr(['a.ts'], [], { base_ref: 'main' })).decision).toBe('SHIP');
    expect(decide(rule({ base_branches: ['release/*'] }), pr(['a.ts'], [], { base_ref: 'release/1.x' })).decision).toBe('NO_SHIP');
    expect(decide(rule({ labels: ['needs-sre'] }), pr(['a.ts'], [], { labels: ['docs'] })).decision).toBe('SHIP');
    expect(decide(rule({ labels: ['needs-sre'] }), pr(['a.ts'], [], { labels: ['needs-sre'] })).decision).toBe('NO_SHIP');
  });

  it('permission: maintain counts only people with maintain or admin', () => {
    const gate = { rules: [{ name: 'maintainers', require: { approvals: 1, approvers: { permission: 'maintain' } } }] };
    expect(decide(gate, pr(['a.ts'], [review('carol', 'APPROVED')])).decision).toBe('NO_SHIP');
    expect(decide(gate, pr(['a.ts'], [review('carol', 'APPROVED', { permission: 'admin' })])).decision).toBe('SHIP');
  });

  it('a rule’s checks are required only when it applies, with the gate’s own check blockers', () => {
    const gate = { rules: [{ name: 'infra plan', if: { paths: ['infra/**'] }, require: { checks: ['terraform-plan'] } }] };
    expect(decide(gate, pr(['src/a.ts'], [])).decision).toBe('SHIP');
    const result = decide(gate, pr(['infra/main.tf'], []));
    expect(result.blockers).toEqual([
      expect.objectContaining({
        code: 'required_check_missing',
        component: 'check:terraform-plan',
        reason: expect.stringContaining("(rule 'infra plan', changing infra/main.tf)"),
      }),
    ]);
    expect(isWaitable(result.blockers[0])).toBe(true);
    expect(result.authorship.rules?.[0]).toMatchObject({
      met: false,
      missing: "Required check 'terraform-plan' has not run on this commit",
    });
  });
});

describe('a rule’s conditional check', () => {
  it('is judged on the pull request’s stored files, as the gate’s own required_checks are', () => {
    const gate = { rules: [{ name: 'all', require: { checks: [{ name: 'e2e', paths: ['src/**'] }] } }] };
    expect(decide(gate, pr(['docs/a.md'], [])).decision).toBe('SHIP');
    expect(decide(gate, pr(['src/a.ts'], [])).blockers).toEqual([
      expect.objectContaining({ code: 'required_check_missing', component: 'check:e2e' }),
    ]);
  });
});

describe('code owners (acceptance 2)', () => {
  const codeowners = { status: 'read' as const, path: '.github/CODEOWNERS', text: '*.ts @dora\n/infra/ @acme/sre\n' };
  const gate = { rules: [{ name: 'owners', require: { approvers: { codeowners: true } } }] };
  const facts = (reviews: ReviewFacts[]) => pr(['src/a.ts', 'infra/main.tf', 'NOTICE'], reviews, { codeowners });

  it('each changed file needs an approval from one of its owners (a user, or a member of the team)', () => {
    const onlyDora = decide(gate, facts([review('dora', 'APPROVED')]));
    expect(onlyDora.decision).toBe('NO_SHIP');
    expect(onlyDora.authorship.rules?.[0].missing).toBe("needs a code owner's approval of infra/main.tf (@acme/sre)");
    const both = decide(gate, facts([review('dora', 'APPROVED'), review('ana', 'APPROVED')]));
    expect(both).toMatchObject({ decision: 'SHIP', blockers: [] });
  });

  it('an owner’s approval that does not count (the author’s own) covers nothing', () => {
    const result = decide(gate, pr(['src/a.ts'], [review('dora', 'APPROVED')], { codeowners, author: { login: 'dora', type: 'User' } }));
    expect(result.authorship.rules?.[0]).toMatchObject({
      met: false,
      approvals: [{ login: 'dora', counted: false, reason: 'pull_request_author' }],
    });
  });

  it('no CODEOWNERS on the base branch fails closed rather than require nobody', () => {
    const result = decide(gate, pr(['src/a.ts'], [review('dora', 'APPROVED')], { codeowners: { status: 'absent' } }));
    expect(result.blockers[0]).toMatchObject({ code: 'rule_not_met', reason: expect.stringContaining('has no CODEOWNERS file') });
  });
});

describe('disapproval (acceptance 3)', () => {
  it('changes requested by an SRE block until they approve; by someone outside the rule, nothing', () => {
    const blocked = decide(
      sre,
      pr(['infra/main.tf'], [review('ana', 'APPROVED'), review('sam', 'APPROVED'), review('tom', 'CHANGES_REQUESTED')]),
    );
    expect(blocked.blockers).toEqual([
      expect.objectContaining({
        code: 'rule_disapproved',
        component: 'rule:infra needs SRE',
        reason: expect.stringContaining('@tom requested changes'),
      }),
    ]);
    expect(blocked.authorship.rules?.[0]).toMatchObject({ met: false, disapproved_by: ['tom'] });
    const outsider = pr(['infra/main.tf'], [review('ana', 'APPROVED'), review('sam', 'APPROVED'), review('zed', 'CHANGES_REQUESTED')]);
    expect(decide(sre, outsider).decision).toBe('SHIP');
    const approvedSince = pr(['infra/main.tf'], [review('ana', 'APPROVED'), review('tom', 'CHANGES_REQUESTED'), review('tom', 'APPROVED')]);
    expect(decide(sre, approvedSince).decision).toBe('SHIP');
  });

  it('a dismissed review no longer blocks', () => {
    const dismissed = pr(['infra/main.tf'], [review('ana', 'APPROVED'), review('sam', 'APPROVED'), review('tom', 'DISMISSED')]);
    expect(decide(sre, dismissed)).toMatchObject({ decision: 'SHIP', blockers: [] });
  });
});

describe('protected paths for agents, on by default (acceptance 5)', () => {
  const approved = [review('carol', 'APPROVED')];

  it('Copilot’s change to a workflow needs a maintainer even with every other requirement met; a person’s does not', () => {
    const result = decide({}, copilot(['.github/workflows/ci.yml'], approved));
    expect(result.blockers).toEqual([
      expect.objectContaining({
        code: 'rule_not_met',
        component: 'rule:protected_paths',
        reason: expect.stringContaining('needs 1 approval from people with maintain or more; has none'),
      }),
    ]);
    expect(result.authorship.rules).toEqual([
      expect.objectContaining({ name: 'protected_paths', triggered_by: ['.github/workflows/ci.yml'] }),
    ]);
    expect(decide({}, copilot(['.github/workflows/ci.yml'], [review('carol', 'APPROVED', { permission: 'maintain' })])).decision).toBe(
      'SHIP',
    );
    expect(decide({}, copilot(['src/a.ts'], approved)).decision).toBe('SHIP');
    expect(decide({}, pr(['.github/workflows/ci.yml'], [])).decision).toBe('SHIP');
  });

  it('the agent’s assignee with admin does not count; protected_paths.enabled: false turns it off', () => {
    const facts = copilot(['CODEOWNERS'], [review('bob', 'APPROVED', { permission: 'admin' }), ...approved]);
    expect(decide({}, facts).blockers[0]).toMatchObject({ code: 'rule_not_met' });
    expect(decide({ protected_paths: { enabled: false } }, facts).decision).toBe('SHIP');
  });

  it('an agent’s pull request whose files were not read never ships; pending is a wait', () => {
    const unread = copilot([], approved, { files: undefined });
    const notRead = decide({}, unread);
    expect(notRead.blockers).toEqual([expect.objectContaining({ code: 'changed_files_unknown', component: 'files:not_read' })]);
    const limited = decide(
      {},
      copilot([], approved, {
        files: { status: 'file_limit', reason: 'It changes 3500 files; GitHub lists 3000.', total: 3500, files: [] },
      }),
    );
    expect(limited.blockers).toEqual([expect.objectContaining({ code: 'changed_files_unknown', component: 'files:file_limit' })]);
    expect(isWaitable(limited.blockers[0])).toBe(false);
    const pending = decide(sre, { number: 12, status: 'pending', reason: null, facts: null });
    expect(pending.blockers).toContainEqual(expect.objectContaining({ code: 'changed_files_unknown', component: 'files:pending' }));
    expect(pending.blockers.every(isWaitable)).toBe(true);
  });

  it('a commit no pull request names: neither rules nor protected paths apply', () => {
    const result = evaluateDecision(gateSchema.parse(sre), evidence([check('build')]), [], NOW);
    expect(result).toMatchObject({ decision: 'SHIP', blockers: [] });
  });
});
