import type { AuthorshipBlock } from '../../core/release/authorship.js';
import { utf8Bytes } from '../../core/github/fit-to-bytes.js';
import { CHECK_RUN_SUMMARY_MAX_BYTES, COMMENT_BODY_MAX_BYTES } from '../../core/github/github-limits.js';
import { checkRunContent, commentBody, type DecisionView } from '../../core/github/release-check-content.js';

const sha = (n: number) => n.toString(16).padStart(40, 'a');

/** An agent's pull request with thousands of commits and reviews, each named at length. */
function hugeView(): DecisionView {
  const authorship: AuthorshipBlock = {
    status: 'read',
    pull_request: 12,
    agent_authored: true,
    agents: ['Copilot'],
    commits: Array.from({ length: 240 }, (_, i) => ({
      sha: sha(i),
      agent_authored: true,
      identities: ['author Copilot', 'committer web-flow', `co-author ${'Ünïcode Person '.repeat(20)} <p${i}@example.com>`],
      governed_by: null,
    })),
    approvals: Array.from({ length: 3000 }, (_, i) => ({
      login: `reviewer-${i}`,
      state: 'APPROVED',
      commit_sha: sha(i),
      counted: false,
      reason: 'stale' as const,
    })),
  };
  return {
    decision: 'NO_SHIP',
    repo_root: 'acme/app',
    commit_sha: sha(1),
    blockers: [],
    baseline: null,
    context: null,
    config_problems: [],
    authorship,
  };
}

describe('the authorship section within GitHub’s limits', () => {
  it('fits the check run summary and the comment, counting what it leaves out, with the link to the decision', () => {
    const view = hugeView();
    const summary = checkRunContent(view, 'https://shipgate.example').output.summary;
    const body = commentBody(view, 'https://shipgate.example');
    expect(utf8Bytes(summary)).toBeLessThanOrEqual(CHECK_RUN_SUMMARY_MAX_BYTES);
    expect(utf8Bytes(body)).toBeLessThanOrEqual(COMMENT_BODY_MAX_BYTES);
    for (const text of [summary, body]) {
      expect(text).toContain('**Authorship**');
      expect(text).toMatch(/- … and \d+ more reviews: \[the full decision\]\(https:\/\/shipgate\.example\/studio#\/releases\/acme\/app\//);
      expect(text).toContain('[View the decision]');
    }
  });

  it('says when authorship is unknown', () => {
    const view = { ...hugeView(), authorship: { ...hugeView().authorship!, status: 'no_pull_request' as const } };
    expect(checkRunContent(view, 'https://shipgate.example').output.summary).toContain(
      'Who made this change is unknown: no open pull request names this commit, so the rules for people apply.',
    );
  });
});
