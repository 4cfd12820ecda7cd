import * as core from '@actions/core';
import { sleep, type ShipgateClient } from './http-client.js';
import type { ActionInputs } from './inputs.js';
import { oneLine, readDecision, type DecisionAnswer } from './answers.js';
import type { Blocker } from './shipgate-types.js';

/** NO_SHIP only because of blockers the service marks `waitable` (docs/release-gate.md). */
export function onlyWaiting(blockers: Blocker[]): boolean {
  return blockers.length > 0 && blockers.every((blocker) => blocker.waitable);
}

/**
 * The decision, asked again every poll-interval while NO_SHIP has only blockers that time can
 * clear, until wait-timeout. Each answer is checked first (answers.ts): one that is not a
 * well-formed decision for this repository and commit fails the step. A real failure (a failed check, failed evidence, ...) ends the wait at once.
 */
export async function waitForDecision(client: ShipgateClient, inputs: ActionInputs, wait = sleep): Promise<DecisionAnswer> {
  const deadline = Date.now() + inputs.waitTimeoutSeconds * 1000;
  const query = { repo_root: inputs.repository, commit_sha: inputs.commitSha };
  for (;;) {
    const what = `read the release decision of ${inputs.repository}`;
    const decision = readDecision(await client.get('/releases/decision', query, what), inputs.repository, inputs.commitSha, what);
    const left = deadline - Date.now();
    if (decision.decision === 'SHIP' || !onlyWaiting(decision.blockers) || left <= 0) return decision;
    const pause = Math.min(inputs.pollIntervalSeconds * 1000, left);
    const waitingFor = oneLine(decision.blockers.map((b) => `${b.code} (${b.component})`).join(', '));
    core.info(
      `NO_SHIP for now, waiting for: ${waitingFor}. Asking again in ${Math.ceil(pause / 1000)}s (${Math.ceil(left / 1000)}s left).`,
    );
    await wait(pause);
  }
}
