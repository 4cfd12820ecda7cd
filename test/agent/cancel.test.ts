import { z } from 'zod';
import { BUILT_IN_TOOLS } from '../../core/agent/tools/built-in-tools.js';
import { defineTool } from '../../core/agent/tools/tool.js';
import { call, finalAnswer, hangUntilAborted, toolTurn } from '../support/scripted-provider.js';
import { agentHarness } from './support/agent-harness.js';
import { until } from './support/until.js';

describe('cancellation', () => {
  it('aborts the in-flight provider call and finishes cancelled, without an execution certificate', async () => {
    const h = agentHarness([toolTurn([call('c1', 'write_report', { name: 'r', content: 'x' })]), hangUntilAborted()]);
    const running = h.run();
    await until(() => h.provider.requests.length === 2);
    expect(h.provider.signals[1].aborted).toBe(false);
    h.journal.cancel(h.id);
    await running;
    expect(h.provider.signals[1].aborted).toBe(true);
    const { execution } = h.stored();
    expect(execution).toMatchObject({ status: 'cancelled', verdict: null, output: null });
    expect(execution.certificates.map((c) => c.kind)).toEqual(['tool_call']);
    expect(h.logs.at(-1)).toEqual({ event: 'agent.finished', fields: { execution_id: h.id, status: 'cancelled' } });
  });

  it('does not ask the provider again once the run was cancelled during a tool call', async () => {
    const cancelling = defineTool({
      name: 'slow_step',
      description: 'test tool',
      capability: 'test:run',
      schema: z.strictObject({}),
      run: async () => {
        h.journal.cancel(h.id);
        return { output: 'done' };
      },
    });
    const h = agentHarness([toolTurn([call('c1', 'slow_step')]), finalAnswer('never')], {
      deps: { tools: [...BUILT_IN_TOOLS, cancelling] },
    });
    await h.run();
    expect(h.provider.requests).toHaveLength(1);
    expect(h.stored().execution).toMatchObject({
      status: 'cancelled',
      tool_calls: [{ call_id: 'c1', verdict: 'allowed', output: 'done' }],
    });
  });
});
