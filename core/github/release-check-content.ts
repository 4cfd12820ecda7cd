import type { AuthorshipBlock } from '../release/authorship.js';
import { onlyWaitable, PENDING_AUTHORSHIP_COMPONENT, type Blocker } from '../release/blocker.js';
import { authorshipParts } from './authorship-report.js';
import { decisionUrl } from '../release/decision-url.js';
import type { Decision } from '../release/evaluate-decision.js';
import type { Baseline } from '../release/snapshot.js';
import { clipToBytes, fitParts, utf8Bytes, type FittedPart } from './fit-to-bytes.js';
import { formatGateFileProblem, type GateFileProblem } from './gate-file-problems.js';
import { CHECK_RUN_SUMMARY_MAX_BYTES, COMMENT_BODY_MAX_BYTES, HEADLINE_MAX_BYTES, REPORT_CELL_MAX_BYTES } from './github-limits.js';
import type { CheckRunContent } from './github-port.js';
import { markdownText } from './markdown-text.js';
import { oneLine } from './one-line.js';
import { reportCell } from './report-cell.js';
import type { CheckRun } from '../release/evidence.js';
import type { RequiredCheckEntry } from '../release/required-check-entry.js';
import { requiredChecksParts } from './required-checks-parts.js';
import { rulesParts } from './rules-report.js';

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
  /** Who made the change (absent for a merge group, whose blockers name its pull request's). */
  authorship?: AuthorshipBlock;
  /** The gate's required checks and the commit's check runs, to say who reported each (absent: no such section). */
  required_checks?: { entries: readonly RequiredCheckEntry[]; check_runs: readonly CheckRun[] };
  /** The overrides in force (docs/release-gate.md, "Overrides"): a SHIP they made possible says so. */
  overridden?: readonly { by: string; reason: string }[];
}

/**
 * How the report writes outside text: as itself in the check run's title, which GitHub shows as plain text, and through
 * markdownText in the Markdown of the summary and the comment (docs/github-app.md, "Quoting outside text").
 */
type Quote = (text: string) => string;
const asIs: Quote = (text) => text;

/**
 * `SHIP (override by @ana: <reason>)`, each override in force named; plain `SHIP` without one. The login is quoted with
 * its `@`: in Markdown the overrider is named, not notified on every update of the comment.
 */
function shipWords(view: DecisionView, quote: Quote): string {
  const by = (view.overridden ?? []).map((o) => `override by ${quote(`@${o.by}`)}: ${quote(oneLine(o.reason))}`);
  return by.length === 0 ? 'SHIP' : `SHIP (${by.join('; ')})`;
}

/** Only blockers time can clear stand between the commit and a decision (`onlyWaitable`): report it as still running. */
export function isWaiting(view: DecisionView): boolean {
  return view.config_problems.length === 0 && onlyWaitable(view.blockers);
}

/** What a waiting decision waits for, as people name it: `ci`, `evidence sbom`, `check runs or evidence`. */
export function waitingFor(blockers: Blocker[]): string {
  const names = blockers.map((b) =>
    b.component === 'commit'
      ? 'check runs or evidence'
      : b.component === PENDING_AUTHORSHIP_COMPONENT
        ? 'the pull request’s authorship'
        : b.component.replace(/^check:/, '').replace(/^evidence:/, 'evidence '),
  );
  return names.join(', ');
}

/** The check run's title and the comment's heading, outside text quoted by `quote`, cut after quoting. */
function headline(view: DecisionView, quote: Quote): string {
  if (view.config_problems.length > 0) return 'NO_SHIP: .github/shipgate.yml is invalid';
  if (view.decision === 'SHIP') return clipToBytes(shipWords(view, quote), HEADLINE_MAX_BYTES);
  if (isWaiting(view)) return clipToBytes(`Waiting for ${quote(oneLine(waitingFor(view.blockers)))}`, HEADLINE_MAX_BYTES);
  return `NO_SHIP: ${view.blockers.length} blocker${view.blockers.length === 1 ? '' : 's'}`;
}

const plural = (n: number, word: string) => `${n} more ${word}${n === 1 ? '' : 's'}`;

/**
 * The Markdown report: decision, gate file problems, blockers with remediation, required checks and who reported
 * them, authorship, the rules that applied, baseline, link,
 * within `maxBytes` of UTF-8: of the problems and the blockers, the first that fit are shown and
 * the rest counted, with the link to the full decision (docs/github-app.md, "Fitting GitHub's
 * limits"). Deterministic, so unchanged means equal.
 */
export function decisionMarkdown(view: DecisionView, publicUrl: string, maxBytes = CHECK_RUN_SUMMARY_MAX_BYTES): string {
  const url = decisionUrl(publicUrl, view.repo_root, view.commit_sha);
  const seeAll = `[the full decision](${url}) lists every one.`;
  const shown =
    view.config_problems.length > 0
      ? 'NO_SHIP'
      : view.decision === 'SHIP'
        ? clipToBytes(shipWords(view, markdownText), REPORT_CELL_MAX_BYTES)
        : view.decision;
  const head = [`**Decision: ${shown}** for \`${view.commit_sha.slice(0, 12)}\` of \`${view.repo_root}\``, ''];
  if (view.context) head.push(clipToBytes(view.context, REPORT_CELL_MAX_BYTES), '');
  const parts: FittedPart[] = [{ lines: head }];
  if (view.config_problems.length > 0) {
    parts.push(
      { lines: ['The repository’s gate file is invalid, so the gate cannot be applied:', ''] },
      {
        items: view.config_problems.map((problem) => `- ${reportCell(formatGateFileProblem(problem))}`),
        more: (left) => `- … and ${plural(left, 'problem')} not shown here: ${seeAll}`,
      },
      { lines: ['', 'Fix the file on the default branch; the check is evaluated again on the next event or `/shipgate recheck`.', ''] },
    );
  }
  if (view.blockers.length > 0) {
    parts.push(
      { lines: ['| Blocker | Component | Reason | Remediation |', '| --- | --- | --- | --- |'] },
      {
        items: view.blockers.map(
          (b) => `| \`${b.code}\` | ${reportCell(b.component)} | ${reportCell(b.reason)} | ${reportCell(b.remediation_suggestion)} |`,
        ),
        // A blank line first: a line right after a table would be read as one more row.
        more: (left) => `\n… and ${plural(left, 'blocker')} not shown here: ${seeAll}`,
      },
      { lines: [''] },
    );
  } else if (view.config_problems.length === 0) {
    parts.push({ lines: ['Every requirement of the gate is met.', ''] });
  }
  if (view.required_checks) parts.push(...requiredChecksParts(view.required_checks.entries, view.required_checks.check_runs, seeAll));
  if (view.authorship) parts.push(...authorshipParts(view.authorship, seeAll), ...rulesParts(view.authorship, seeAll));
  const baseline = view.baseline
    ? `Baseline: \`${view.baseline.commit_sha.slice(0, 12)}\`${view.baseline.release_label ? ` (${reportCell(view.baseline.release_label)})` : ''}, attested ${view.baseline.attested_at}.`
    : 'Baseline: no attested release of this repository yet.';
  parts.push({ lines: [baseline, '', `[View the decision](${url})`] });
  return fitParts(parts, maxBytes);
}

/** shipgate's check run for the commit: success (SHIP), failure (NO_SHIP), or in progress while only blockers time can clear stand. */
export function checkRunContent(view: DecisionView, publicUrl: string): CheckRunContent {
  const waiting = isWaiting(view);
  const passed = view.decision === 'SHIP' && view.config_problems.length === 0;
  return {
    status: waiting ? 'in_progress' : 'completed',
    conclusion: waiting ? null : passed ? 'success' : 'failure',
    details_url: decisionUrl(publicUrl, view.repo_root, view.commit_sha),
    output: { title: headline(view, asIs), summary: decisionMarkdown(view, publicUrl) },
  };
}

/** The pull request comment: the marker, a heading, the same report as the check run, within GitHub's limit for a comment. */
export function commentBody(view: DecisionView, publicUrl: string): string {
  const heading = `${COMMENT_MARKER}\n### shipgate release gate: ${headline(view, markdownText)}\n\n`;
  const end = '\n';
  const room = COMMENT_BODY_MAX_BYTES - utf8Bytes(heading) - utf8Bytes(end);
  return `${heading}${decisionMarkdown(view, publicUrl, room)}${end}`;
}
