import { z } from 'zod';
import { defineTool, type Tool } from '../../core/agent/tools/tool.js';
import { BUILT_IN_TOOLS } from '../../core/agent/tools/built-in-tools.js';
import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { agentHarness, type Harness } from './support/agent-harness.js';

const report = (id: string) => call(id, 'write_report', { name: id, content: `report ${id}` });

/** A tool that reaches outside the process (as http_get does); notes what the journal held when it ran. */
function outsideTool(seen: string[][], harness: () => Harness): Tool {
  return defineTool({
    name: 'fetch_status',
    description: 'asks a remote service',
    capability: 'network:status',
    schema: z.strictObject({}),
    run: async () => {
      seen.push(
        harness()
          .stored()
          .transcript.map((m) => m.role),
      );
      return { output: 'up' };
    },
  });
}

/** Who wrote what: each journal write of a run, in order. */
function noteWrites(h: Harness): string[] {
  const writes: string[] = [];
  const { recordTurn, recordToolCall } = h.journal;
  h.journal.recordTurn = (...args) => (writes.push('turn'), recordTurn.apply(h.journal, args));
  h.journal.recordToolCall = (...args) => (writes.push(args[5] ? 'turn+call' : 'call'), recordToolCall.apply(h.journal, args));
  return writes;
}

describe('when a turn is recorded', () => {
  it('records a turn whose first call runs in process in the same write as that call', async () => {
    const h = agentHarness([toolTurn([report('c1'), report('c2')]), finalAnswer('done')]);
    const writes = noteWrites(h);
    await h.run();
    expect(writes).toEqual(['turn+call', 'call', 'turn']);
    expect(h.stored().transcript.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'assistant']);
    expect(h.stored().execution).toMatchObject({ status: 'completed', cost_cents: 2 });
  });

  it('records a turn on its own before a tool that reaches outside the process runs', async () => {
    const seen: string[][] = [];
    const h: Harness = agentHarness([toolTurn([call('s1', 'fetch_status'), report('c2')]), finalAnswer('done')], {
      deps: { tools: [...BUILT_IN_TOOLS, outsideTool(seen, () => h)] },
    });
    const writes = noteWrites(h);
    await h.run();
    expect(seen).toEqual([['assistant']]);
    expect(writes).toEqual(['turn', 'call', 'call', 'turn']);
    expect(h.stored().execution.tool_calls.map((c) => [c.call_id, c.verdict])).toEqual([
      ['s1', 'allowed'],
      ['c2', 'allowed'],
    ]);
  });

  it('after a crash during a tool outside the process, answers the recorded turn without asking again', async () => {
    const seen: string[][] = [];
    const h: Harness = agentHarness([toolTurn([call('s1', 'fetch_status')]), finalAnswer('done')], {
      deps: { tools: [...BUILT_IN_TOOLS, outsideTool(seen, () => h)] },
    });
    h.journal.crashOn = { method: 'recordToolCall', nth: 1 };
    await expect(h.run()).rejects.toThrow('simulated crash in recordToolCall');
    expect(h.stored().execution.cost_cents).toBe(1);
    await h.run();
    expect(h.provider.requests).toHaveLength(2);
    expect(seen).toHaveLength(2);
    expect(h.stored().execution).toMatchObject({ status: 'completed', output: 'done', cost_cents: 2 });
  });

  it('after a crash before a carried turn was written, asks again and counts only what was recorded', async () => {
    const h = agentHarness([toolTurn([report('lost')]), toolTurn([report('c1')]), finalAnswer('done')]);
    h.journal.crashOn = { method: 'recordToolCall', nth: 1 };
    await expect(h.run()).rejects.toThrow('simulated crash in recordToolCall');
    // Nothing of the interrupted step is stored: neither the turn nor its call.
    expect(h.stored().transcript.map((m) => m.role)).toEqual([]);
    expect(h.stored().execution.cost_cents).toBe(0);
    await h.run();
    expect(h.provider.requests).toHaveLength(3);
    expect(h.stored().execution.tool_calls.map((c) => c.call_id)).toEqual(['c1']);
    expect(h.stored().execution).toMatchObject({ status: 'completed', cost_cents: 2 });
  });
});
