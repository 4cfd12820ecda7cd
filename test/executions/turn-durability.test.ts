import type { ExecutionJournal } from '../../core/agent/journal.js';
import type { ProviderResponse } from '../../core/agent/provider.js';
import { runExecution } from '../../core/agent/run-execution.js';
import { policyRef } from '../../core/policies/policy-digest.js';
import { defaultPolicy } from '../agent/support/agent-harness.js';
import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { openJournalDatabase, type JournalDatabase } from './support/journal-database.js';
import { newExecution as newExecutionOf } from './support/execution-fixtures.js';
import { journalRuntime } from './support/journal-runtime.js';

const policy = defaultPolicy();
let t: JournalDatabase;
beforeAll(async () => {
  t = await openJournalDatabase(policy);
});
afterAll(() => t.database.drop());

const newExecution = () => newExecutionOf(t.ownerId, policyRef(policy));
const report = (id: string) => call(id, 'write_report', { name: id, content: `report ${id}` });

// A turn's commit does not wait for its WAL flush (db/stores/agent/record-journal-step.ts): these check
// that the write that always follows it before the next provider call, or the run's end, does.
describe('durability of a turn', () => {
  /** Where the WAL ends now: a commit already made ends at or before it. */
  const walEnd = async (): Promise<string> => (await t.database.db.raw('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;
  const flushedTo = async (lsn: string): Promise<boolean> =>
    (await t.database.db.raw('SELECT pg_current_wal_flush_lsn() >= ?::pg_lsn AS flushed', [lsn])).rows[0].flushed;

  it('is flushed to disk before the next provider call, on its own or carried by a tool call', async () => {
    const { id } = await t.store.create(newExecution(), { enqueue: false });
    // Where the WAL ended right after each turn written on its own (its commit does not flush it;
    // the tool call's that follows must). A carried turn commits with its tool call, a durable
    // commit like any tool call's; for it only the WAL before that write is checked: read after
    // it, the cluster's WAL end could include another session's records no commit of ours flushes.
    const turnEnds: string[] = [];
    const writes: string[] = [];
    const noting: ExecutionJournal = {
      ...t.journal,
      recordTurn: async (...args) => {
        await t.journal.recordTurn(...args);
        writes.push('turn');
        turnEnds.push(await walEnd());
      },
      recordToolCall: async (...args) => {
        if (args[5]) turnEnds.push(await walEnd());
        await t.journal.recordToolCall(...args);
        writes.push(args[5] ? 'turn+call' : 'call');
      },
    };
    const flushedAtRequest: boolean[] = [];
    const checkThenAnswer = (answer: ProviderResponse) => async () => {
      flushedAtRequest.push(await flushedTo(turnEnds.at(-1)!));
      return answer;
    };
    // http_get reaches outside the process (denied here: no allowlist), so its turn is written first.
    const { deps, provider } = journalRuntime(
      [
        toolTurn([call('h1', 'http_get', { url: 'https://example.com/' })]),
        checkThenAnswer(toolTurn([report('c2')])),
        checkThenAnswer(finalAnswer('done')),
      ],
      noting,
    );
    await runExecution(deps, id);
    expect(provider.requests).toHaveLength(3);
    expect(writes).toEqual(['turn', 'call', 'turn+call', 'turn']);
    expect(flushedAtRequest).toEqual([true, true]);
    expect((await t.store.get(id))!.status).toBe('completed');
  });

  it('is flushed when the run ends, even when it was cancelled before the turn was recorded', async () => {
    const { id } = await t.store.create(newExecution(), { enqueue: false });
    await t.journal.start(id);
    await t.store.cancel(id);
    await t.journal.recordTurn(id, { role: 'assistant', content: 'the last words', tool_calls: [] }, 2);
    const turnEnd = await walEnd();
    await t.journal.finish(id, {
      status: 'completed',
      verdict: 'compliant',
      output: 'the last words',
      error: null,
      certificate: null,
      violations: [],
    });
    expect(await flushedTo(turnEnd)).toBe(true);
    // The cancellation stands; the turn it let through is kept.
    expect((await t.store.get(id))!).toMatchObject({ status: 'cancelled', cost_cents: 2 });
    expect((await t.journal.load(id)).transcript.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
