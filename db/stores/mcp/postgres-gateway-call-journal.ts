import type { Knex } from 'knex';
import type { GatewayCallJournal } from '../../../core/mcp/gateway-call-journal.js';
import { recordGatewayCallStep } from '../agent/record-journal-step.js';

/** Statuses whose execution takes no more steps (record-journal-step.ts, OPEN). */
const FINISHED = new Set(['completed', 'failed']);

/** Gateway calls in the run journal's tables, one statement each (record-journal-step.ts). */
export function createGatewayCallJournal(db: Knex): GatewayCallJournal {
  return {
    async record(executionId, entry, answer, certificate) {
      const { status, recorded } = await recordGatewayCallStep(db, executionId, { entry, answer, certificate, artifact: null });
      if (recorded) return 'recorded';
      return status === null || FINISHED.has(status) ? 'ended' : 'seq_taken';
    },
  };
}
