import * as core from '@actions/core';
import { summaryDetails, summaryLine } from './evidence-summary.js';
import type { ActionInputs } from './inputs.js';
import type { DecisionAnswer } from './answers.js';
import type { EvidenceRecord } from './shipgate-types.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The job summary: the decision, what blocks it with how to fix each, and a link to the decision. */
export async function writeJobSummary(inputs: ActionInputs, decision: DecisionAnswer | undefined, evidence: EvidenceRecord | undefined) {
  const summary = core.summary;
  const target = `${escapeHtml(inputs.repository)} @ <code>${inputs.commitSha.slice(0, 12)}</code>`;
  if (decision) {
    summary.addHeading(decision.decision === 'SHIP' ? 'shipgate: ✅ SHIP' : 'shipgate: ❌ NO_SHIP', 2);
    summary.addRaw(`<p>${target}</p>`, true);
  } else {
    summary.addHeading('shipgate: evidence recorded', 2);
  }
  if (evidence)
    summary.addRaw(
      `<p>Evidence <b>${escapeHtml(evidence.name)}</b>: ${escapeHtml(evidence.status)}${evidence.digest ? ` (<code>${escapeHtml(evidence.digest)}</code>)` : ''}</p>`,
      true,
    );
  if (evidence?.summary) {
    // What shipgate read from the document, e.g. "412 tests, 3 failed" and the failing names.
    summary.addRaw(
      `<p>shipgate read it as ${escapeHtml(evidence.format ?? evidence.summary.format)}: <b>${escapeHtml(summaryLine(evidence.summary))}</b></p>`,
      true,
    );
    const details = summaryDetails(evidence.summary);
    if (details) summary.addRaw(`<p>${escapeHtml(details.title)}:</p>`, true).addList(details.items.map(escapeHtml));
  }
  if (decision && decision.blockers.length > 0)
    summary.addTable([
      [
        { data: 'Blocker', header: true },
        { data: 'Component', header: true },
        { data: 'Reason', header: true },
        { data: 'Remediation', header: true },
      ],
      ...decision.blockers.map((b) => [b.code, b.component, b.reason, b.remediation_suggestion].map(escapeHtml)),
    ]);
  if (decision) summary.addLink('Open the decision in shipgate', decision.decision_url);
  try {
    await summary.write();
  } catch (error) {
    // Outside a runner (no GITHUB_STEP_SUMMARY) the log still has everything.
    core.warning(`No job summary written: ${error instanceof Error ? error.message : String(error)}`);
  }
}
