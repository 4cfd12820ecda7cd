import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { agentHarness } from './support/agent-harness.js';
import { predicateOf } from './support/predicate-of.js';

const report = (id: string) => call(id, 'write_report', { name: id, content: `report ${id}` });

describe('resume after a crash', () => {
  it('answers only the calls of the interrupted turn that were not recorded, then goes on', async () => {
    const h = agentHarness([toolTurn([report('c1'), report('c2'), report('c3')]), finalAnswer('All three stored.')]);
    h.journal.crashOn = { method: 'recordToolCall', nth: 2 };
    await expect(h.run()).rejects.toThrow('simulated crash in recordToolCall');
    expect(h.stored().execution.tool_calls.map((c) => c.call_id)).toEqual(['c1']);
    expect(h.stored().execution.status).toBe('running');

    await h.run();
    const { execution } = h.stored();
    expect(execution.tool_calls.map((c) => [c.seq, c.call_id, c.verdict])).toEqual([
      [1, 'c1', 'allowed'],
      [2, 'c2', 'allowed'],
      [3, 'c3', 'allowed'],
    ]);
    expect(execution.artifacts.map((a) => a.name)).toEqual(['c1', 'c2', 'c3']);
    expect(execution).toMatchObject({ status: 'completed', output: 'All three stored.', cost_cents: 2 });
    // The provider was asked once per turn; the resumed request answered each id exactly once.
    expect(h.provider.requests).toHaveLength(2);
    expect(h.provider.requests[1].messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3']);
  });

  it('keeps the certificate chain linked across the crash', async () => {
    const h = agentHarness([toolTurn([report('c1'), report('c2')]), finalAnswer('done')]);
    h.journal.crashOn = { method: 'recordToolCall', nth: 2 };
    await expect(h.run()).rejects.toThrow();
    await h.run();
    const certificates = h.stored().execution.certificates;
    expect(certificates.map((c) => c.kind)).toEqual(['tool_call', 'tool_call', 'execution']);
    expect(certificates.map((c) => predicateOf(c).prev)).toEqual([
      null,
      { sha256: certificates[0].digest },
      { sha256: certificates[1].digest },
    ]);
  });

  it('finishes a run whose final answer was recorded before the crash without asking again', async () => {
    const h = agentHarness([finalAnswer('The answer.')]);
    h.journal.crashOn = { method: 'finish', nth: 1 };
    await expect(h.run()).rejects.toThrow('simulated crash in finish');
    await h.run();
    expect(h.provider.requests).toHaveLength(1);
    expect(h.stored().execution).toMatchObject({ status: 'completed', output: 'The answer.', cost_cents: 1 });
  });

  it('asks again when the crash came before the turn was recorded (nothing was lost or charged twice)', async () => {
    const h = agentHarness([finalAnswer('lost'), finalAnswer('kept')]);
    h.journal.crashOn = { method: 'recordTurn', nth: 1 };
    await expect(h.run()).rejects.toThrow();
    await h.run();
    expect(h.stored().execution).toMatchObject({ status: 'completed', output: 'kept', cost_cents: 1 });
  });
});
