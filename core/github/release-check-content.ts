import { onlyWaitable, type Blocker } from '../release/blocker.js';
import { decisionUrl } from '../release/decision-url.js';
import type { Decision } from '../release/evaluate-decision.js';
import type { Baseline } from '../release/snapshot.js';
import { formatGateFileProblem, type GateFileProblem } from './gate-file-problems.js';
import type { CheckRunContent } from './github-port.js';

/** The hidden line that identifies shipgate's pull request comment among all others. */
export const COMMENT_MARKER = '<!-- shipgate:release-gate -->';

/** What shipgate reports about one commit on GitHub. */
export interface DecisionView {
  decision: Decision;
  repo_root: string;
  commit_sha: string;
  blockers: Blocker[];
  baseline: Baseline | null;
  /** Said above the blockers, e.g. which pull request a merge group was evaluated for. */
  context: string | null;
  /** Problems in `.github/shipgate.yml`: the check fails until the file is fixed. */
  config_problems: GateFileProblem[];
}

/** Only blockers time can clear stand between the commit and a decision (`onlyWaitable`): report it as still running. */
export function isWaiting(view: DecisionView): boolean {
  return view.config_problems.length === 0 && onlyWaitable(view.blockers);
}

/** What a waiting decision waits for, as people name it: `ci`, `evidence sbom`, `check runs or evidence`. */
export function waitingFor(blockers: Blocker[]): string {
  const names = blockers.map((b) =>
    b.component === 'commit' ? 'check runs or evidence' : b.component.replace(/^check:/, '').replace(/^evidence:/, 'evidence '),
  );
  return names.join(', ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function headline(view: DecisionView): string {
  if (view.config_problems.length > 0) return 'NO_SHIP: .github/shipgate.yml is invalid';
  if (view.decision === 'SHIP') return 'SHIP';
  if (isWaiting(view)) return `Waiting for ${waitingFor(view.blockers)}`;
  return `NO_SHIP: ${view.blockers.length} blocker${view.blockers.length === 1 ? '' : 's'}`;
}

/** The Markdown report: decision, blockers with remediation, baseline, link. Deterministic, so unchanged means equal. */
export function decisionMarkdown(view: DecisionView, publicUrl: string): string {
  const shown = view.config_problems.length > 0 ? 'NO_SHIP' : view.decision;
  const lines = [`**Decision: ${shown}** for \`${view.commit_sha.slice(0, 12)}\` of \`${view.repo_root}\``, ''];
  if (view.context) lines.push(view.context, '');
  if (view.config_problems.length > 0) {
    lines.push('The repository’s gate file is invalid, so the gate cannot be applied:', '');
    for (const problem of view.config_problems) lines.push(`- \`${cell(formatGateFileProblem(problem))}\``);
    lines.push('', 'Fix the file on the default branch; the check is evaluated again on the next event or `/shipgate recheck`.', '');
  }
  if (view.blockers.length > 0) {
    lines.push('| Blocker | Component | Reason | Remediation |', '| --- | --- | --- | --- |');
    for (const b of view.blockers)
      lines.push(`| \`${b.code}\` | ${cell(b.component)} | ${cell(b.reason)} | ${cell(b.remediation_suggestion)} |`);
    lines.push('');
  } else if (view.config_problems.length === 0) {
    lines.push('Every requirement of the gate is met.', '');
  }
  const baseline = view.baseline
    ? `Baseline: \`${view.baseline.commit_sha.slice(0, 12)}\`${view.baseline.release_label ? ` (${cell(view.baseline.release_label)})` : ''}, attested ${view.baseline.attested_at}.`
    : 'Baseline: no attested release of this repository yet.';
  lines.push(baseline, '', `[View the decision](${decisionUrl(publicUrl, view.repo_root, view.commit_sha)})`);
  return lines.join('\n');
}

/** shipgate's check run for the commit: success (SHIP), failure (NO_SHIP), or in progress while only blockers time can clear stand. */
export function checkRunContent(view: DecisionView, publicUrl: string): CheckRunContent {
  const waiting = isWaiting(view);
  const passed = view.decision === 'SHIP' && view.config_problems.length === 0;
  return {
    status: waiting ? 'in_progress' : 'completed',
    conclusion: waiting ? null : passed ? 'success' : 'failure',
    details_url: decisionUrl(publicUrl, view.repo_root, view.commit_sha),
    output: { title: headline(view), summary: decisionMarkdown(view, publicUrl) },
  };
}

/** The pull request comment: the marker, a heading, the same report as the check run. */
export function commentBody(view: DecisionView, publicUrl: string): string {
  return `${COMMENT_MARKER}\n### shipgate release gate: ${headline(view)}\n\n${decisionMarkdown(view, publicUrl)}\n`;
}
