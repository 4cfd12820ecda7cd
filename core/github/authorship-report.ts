import { approvalReasonText } from '../release/approval-reason-text.js';
import type { AuthorshipBlock, GovernedBy, JudgedApproval } from '../release/authorship.js';
import type { FittedPart } from './fit-to-bytes.js';
import { reportCell } from './report-cell.js';

const short = (sha: string | null) => (sha ? `\`${sha.slice(0, 12)}\`` : 'an unknown head');

function approvalLine(a: JudgedApproval): string {
  const verdict = a.counted ? 'counted' : `not counted (${approvalReasonText(a.reason)})`;
  // The reviewer is named, not notified on every update of the comment (docs/github-app.md, "Quoting outside text").
  return `- ${reportCell(`@${a.login}`)} ${a.state.toLowerCase().replace('_', ' ')} ${short(a.commit_sha)}: ${verdict}`;
}

const STATUS_TEXT: Record<string, string> = {
  pending: 'not read from GitHub yet.',
  unreadable: 'unknown: GitHub could not be read (see the blockers).',
  commit_limit: 'unknown: more commits than GitHub lists (see the blockers).',
  no_pull_request: 'unknown: no open pull request names this commit, so the rules for people apply.',
};

/** The agent session covering an agent's commit, when one does (docs/mcp-gateway.md). */
const coveredBy = (g: GovernedBy | null) => {
  if (g?.kind !== 'agent_session') return '';
  // A coding agent's governed `git push` names the call that pushed it (docs/agent-hooks.md, "Governed pushes"): the
  // agent wrote that command, and maybe the session id, so both are quoted (docs/github-app.md, "Quoting outside text").
  const call = g.call ? ` by its call ${g.call.seq} (${reportCell(g.call.command)})` : '';
  return `; pushed during agent session ${reportCell(g.session_id)}${call}`;
};

/**
 * The "Authorship" section of the check run and the PR comment (docs/github-app.md): which agent
 * made which commit, and each approval, counted or not and why; lists fitted like the blockers.
 */
export function authorshipParts(block: AuthorshipBlock, seeAll: string): FittedPart[] {
  const heading = { lines: ['**Authorship**', ''] };
  if (block.status !== 'read') return [heading, { lines: [`Who made this change is ${STATUS_TEXT[block.status]}`, ''] }];
  const agentCommits = block.commits.filter((c) => c.agent_authored);
  const summary = block.agent_authored
    ? `Pull request #${block.pull_request} was made with ${reportCell(block.agents.join(', '))}: ${agentCommits.length} of its ${block.commits.length} commits by an agent.`
    : `No agent took part in pull request #${block.pull_request}.`;
  const parts: FittedPart[] = [heading, { lines: [summary, ''] }];
  if (agentCommits.length > 0) {
    parts.push(
      {
        items: agentCommits.map((c) => `- ${short(c.sha)}: ${reportCell(c.identities.join(', '))}${coveredBy(c.governed_by)}`),
        more: (left) => `- … and ${left} more agent commits: ${seeAll}`,
      },
      { lines: [''] },
    );
  }
  if (block.approvals.length > 0) {
    parts.push({ items: block.approvals.map(approvalLine), more: (left) => `- … and ${left} more reviews: ${seeAll}` }, { lines: [''] });
  } else if (block.agent_authored) {
    parts.push({ lines: ['No approving reviews yet.', ''] });
  }
  return parts;
}
