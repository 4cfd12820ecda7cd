import type { AuthorshipBlock } from '../../core/release/authorship.js';
import type { Blocker } from '../../core/release/blocker.js';
import type { CheckRun } from '../../core/release/evidence.js';
import { utf8Bytes } from '../../core/github/fit-to-bytes.js';
import { CHECK_RUN_SUMMARY_MAX_BYTES, COMMENT_BODY_MAX_BYTES, REPORT_CELL_MAX_BYTES } from '../../core/github/github-limits.js';
import { checkRunContent, COMMENT_MARKER, commentBody, type DecisionView } from '../../core/github/release-check-content.js';

// docs/github-app.md, "Quoting outside text": check run names, evidence names, file paths, the gate file's rules and
// problems, logins, override reasons are written by people (and agents) outside the gate. The App's check run and
// comment must show them as text: no mention, no reference, no HTML or Markdown of theirs.

const URL = 'https://shipgate.example';
const sha = (n: number) => n.toString(16).padStart(40, 'a');

const PING = '@acme/everyone please look';
const REFERENCES = 'see #123, acme/other#5, GH-12 and https://github.com/acme/other/issues/9';
const FORGED = '</details><h2>✅ SHIP</h2><img src=https://tracker/x> [SHIP](https://evil) **SHIP** ~~NO_SHIP~~';
const MARKER = `${COMMENT_MARKER} $\\color{green}SHIP$ &lt;b&gt;`;
const BACKTICK = 'name`break <b>out</b>`';

const blocker = (over: Partial<Blocker>): Blocker => ({
  code: 'required_check_failed',
  component: 'check:ci',
  reason: 'Required check failed.',
  remediation_suggestion: 'Fix it.',
  ...over,
});

const hostileRun: CheckRun = {
  name: PING,
  status: 'completed',
  conclusion: 'failure',
  produced_at: '2026-01-01T00:00:00Z',
  details_url: null,
  external_id: null,
  app: { id: 9, slug: 'evil</details>' },
};

const authorship: AuthorshipBlock = {
  status: 'read',
  pull_request: 7,
  agent_authored: true,
  agents: ['<img src=https://tracker/agent>'],
  commits: [
    {
      sha: sha(2),
      agent_authored: true,
      identities: ['author @acme/everyone', `co-author ${FORGED} <p@example.com>`],
      governed_by: { kind: 'agent_session', session_id: 'sess`<h2>', execution_id: 'e', call: { seq: 1, tool: 'Bash', command: BACKTICK } },
    },
  ],
  approvals: [{ login: 'ana', state: 'APPROVED', commit_sha: sha(3), counted: false, reason: 'stale' }],
  changed_files: { count: 2, paths: ['docs/@alice.md'], status: 'read' },
  rules: [
    {
      name: '[SHIP](https://evil)',
      met: false,
      triggered_by: ['docs/@alice.md', `docs/#123${BACKTICK}.md`],
      missing: `needs 1 approval from @acme/sre; ${REFERENCES}`,
      disapproved_by: ['bob'],
      approvals: [],
    },
  ],
};

/** A NO_SHIP whose every quoted field holds an attack. */
const noShip: DecisionView = {
  decision: 'NO_SHIP',
  repo_root: 'acme/app',
  commit_sha: sha(1),
  blockers: [
    blocker({ component: `check:${PING}`, reason: FORGED, remediation_suggestion: REFERENCES }),
    blocker({ code: 'required_evidence_missing', component: `evidence:${MARKER}`, reason: BACKTICK }),
  ],
  baseline: { snapshot_id: 's', commit_sha: sha(4), release_label: '<img src=https://tracker/label>', attested_at: '2026-01-01T00:00:00Z' },
  context: null,
  config_problems: [],
  authorship,
  required_checks: { entries: [PING, { name: FORGED, app: 'github-actions' }], check_runs: [hostileRun] },
};

/** A SHIP an override made possible, its reason and login the attack. */
const overridden: DecisionView = {
  ...noShip,
  decision: 'SHIP',
  blockers: [],
  authorship: undefined,
  required_checks: undefined,
  overridden: [{ by: 'ana', reason: `${FORGED} ${REFERENCES} ${PING} ${MARKER}` }],
};

/** Only checks not reported yet: the headline waits for them, by name. */
const waiting: DecisionView = {
  ...overridden,
  decision: 'NO_SHIP',
  overridden: undefined,
  blockers: [blocker({ code: 'required_check_missing', component: `check:${PING} ${FORGED} ${REFERENCES} ${MARKER}` })],
};

/** An invalid gate file whose problem quotes its hostile content. */
const badFile: DecisionView = {
  ...noShip,
  config_problems: [{ file: '.github/shipgate.yml', line: 3, message: `rules.0.name: ${BACKTICK} ${FORGED} ${PING} ${MARKER}` }],
};

const texts = (view: DecisionView) => ({ summary: checkRunContent(view, URL).output.summary, comment: commentBody(view, URL) });

/** Whether `needle` occurs in `text` not escaped: not after an odd number of backslashes. */
function unescaped(text: string, needle: string): boolean {
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    let slashes = 0;
    while (text[at - 1 - slashes] === '\\') slashes++;
    if (slashes % 2 === 0) return true;
  }
  return false;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe.each([
  ['a NO_SHIP', noShip],
  ['an overridden SHIP', overridden],
  ['a waiting check run', waiting],
  ['an invalid gate file', badFile],
])('hostile text in %s', (_, view) => {
  const { summary, comment } = texts(view);

  it.each([
    ['summary', summary],
    ['comment', comment],
  ])('the %s mentions nobody: no @acme/everyone, @alice, @ana or @bob GitHub would notify', (_, text) => {
    for (const mention of ['@acme/everyone', '@acme/sre', '@alice', '@ana', '@bob', '@example']) expect(text).not.toContain(mention);
    expect(text).toContain('acme/everyone');
  });

  it.each([
    ['summary', summary],
    ['comment', comment],
  ])('the %s references no issue: no #123, acme/other#5, GH-12 or issue URL autolinks', (_, text) => {
    for (const reference of ['#123', 'other#5', 'GH-12', 'https://github.com']) expect(text).not.toContain(reference);
    expect(text).toContain('123');
  });

  it.each([
    ['summary', summary],
    ['comment', comment],
  ])('the %s forges nothing: its HTML, links, emphasis and math are text', (_, text) => {
    for (const tag of ['</details>', '<h2', '<img', '<b>', '</b>', '&lt;']) expect(unescaped(text, tag)).toBe(false);
    for (const markup of ['[SHIP](', '**SHIP**', '~~NO_SHIP~~', '$\\color']) expect(text).not.toContain(markup);
    expect(text).toContain('SHIP');
    expect(text).toMatch(/tracker/);
  });

  it('the comment holds one marker, its own first line, and the check run none', () => {
    expect(count(comment, COMMENT_MARKER)).toBe(1);
    expect(comment.startsWith(`${COMMENT_MARKER}\n`)).toBe(true);
    expect(count(summary, COMMENT_MARKER)).toBe(0);
  });
});

describe.each([
  ['a NO_SHIP', noShip],
  ['an invalid gate file', badFile],
])('a backtick in %s', (_, view) => {
  it('opens no code span, so nothing after it is read as Markdown or hidden in one', () => {
    for (const text of Object.values(texts(view))) {
      expect(unescaped(text, '`break')).toBe(false);
      expect(text).toContain('name\\`break');
    }
  });
});

describe('hostile text and GitHub’s limits', () => {
  it('escaping is counted: a cell of Markdown punctuation stays within a cell’s bytes and the report within GitHub’s', () => {
    const punctuation = '<@#'.repeat(3000);
    const view: DecisionView = {
      ...noShip,
      blockers: Array.from({ length: 300 }, (_, i) => blocker({ component: `check:${i}${punctuation}`, reason: punctuation })),
    };
    const { summary, comment } = texts(view);
    expect(utf8Bytes(summary)).toBeLessThanOrEqual(CHECK_RUN_SUMMARY_MAX_BYTES);
    expect(utf8Bytes(comment)).toBeLessThanOrEqual(COMMENT_BODY_MAX_BYTES);
    const row = summary.split('\n').find((line) => line.startsWith('| `required_check_failed` |'))!;
    const cells = row.split(' | ').slice(1);
    for (const cell of cells) expect(utf8Bytes(cell)).toBeLessThanOrEqual(REPORT_CELL_MAX_BYTES + 2);
    expect(unescaped(row, '<')).toBe(false);
  });
});
