import * as core from '@actions/core';
import { ActionError } from './action-error.js';
import { apiKeyCredential, oidcCredential } from './credential.js';
import { createClient } from './http-client.js';
import { parseInputs } from './inputs.js';
import { handOnSession, openSession } from './open-session.js';
import { writeAgentHooks } from './agent-hooks.js';
import { writeJobSummary } from './job-summary.js';
import { uploadEvidence } from './upload-evidence.js';
import { oneLine, type DecisionAnswer } from './answers.js';
import { waitForDecision } from './wait-for-decision.js';

/** Blockers printed one a line in the log; the rest are in the outputs, the job summary and the decision's page. */
const PRINTED_BLOCKERS = 50;

/** The decision in the log. Server text is printed with oneLine: no line of it can start a workflow command. */
function report(decision: DecisionAnswer, url: string): void {
  core.info(
    `shipgate decision for ${oneLine(decision.repo_root, 200)}@${decision.commit_sha}: ${decision.decision} (snapshot ${decision.snapshot_id})`,
  );
  for (const b of decision.blockers.slice(0, PRINTED_BLOCKERS))
    core.info(
      `  blocker ${oneLine(b.code, 100)} [${oneLine(b.component, 300)}]: ${oneLine(b.reason)} Remediation: ${oneLine(b.remediation_suggestion)}`,
    );
  if (decision.blockers.length > PRINTED_BLOCKERS)
    core.info(`  … and ${decision.blockers.length - PRINTED_BLOCKERS} more blockers (see the job summary and the decision's page)`);
  core.info(`Details: ${oneLine(url, 2048)}`);
}

/**
 * The Action. `mode: session` opens an agent session and sets its outputs (with `agent`, writes
 * that coding agent's hook configuration). Otherwise (`gate`):
 * record evidence (when evidence-name is set), then ask for the decision (waiting within
 * wait-timeout while only pending or missing checks/evidence block), set the outputs, write the
 * job summary, and fail the job on NO_SHIP. Every failure ends in the one setFailed below.
 */
export async function run(): Promise<void> {
  try {
    const inputs = parseInputs();
    const credential = inputs.apiKey ? apiKeyCredential(inputs.apiKey) : oidcCredential(inputs.audience);
    const client = createClient(inputs.apiUrl, credential);
    if (inputs.session) {
      const session = await openSession(client, inputs.repository, inputs.session);
      if (inputs.session.agent) await writeAgentHooks(client, session, inputs.session.agent, process.env.GITHUB_WORKSPACE ?? process.cwd());
      return handOnSession(session, inputs.repository, inputs.session);
    }
    const evidence = inputs.evidence ? await uploadEvidence(client, inputs, inputs.evidence) : undefined;
    if (!inputs.decide) return await writeJobSummary(inputs, undefined, evidence);

    const decision = await waitForDecision(client, inputs);
    const url = decision.decision_url;
    core.setOutput('decision', decision.decision);
    core.setOutput('snapshot-id', decision.snapshot_id);
    core.setOutput('blockers', JSON.stringify(decision.blockers));
    core.setOutput('decision-url', url);
    report(decision, url);
    await writeJobSummary(inputs, decision, evidence);
    if (decision.decision === 'SHIP') return;
    const blockers = oneLine(decision.blockers.map((b) => `${b.code} (${b.component})`).join(', '));
    const blocked = `shipgate decided NO_SHIP for ${inputs.repository}@${inputs.commitSha.slice(0, 12)}: ${blockers}. ${url}`;
    if (!inputs.failOnNoShip) return core.warning(`${blocked} (fail-on-no-ship is false: the job goes on)`);
    throw new ActionError(blocked);
  } catch (error) {
    core.setFailed(error instanceof ActionError ? error.message : `Unexpected error in the shipgate Action: ${String(error)}`);
  }
}
