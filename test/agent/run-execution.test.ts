import { sha256Hex } from '../../core/canonical-json.js';
import { toolCallDigest } from '../../core/certificates/tool-call-digest.js';
import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { agentHarness, defaultPolicy } from './support/agent-harness.js';
import { predicateOf } from './support/predicate-of.js';

describe('runExecution: one run with every kind of verdict', () => {
  const task = 'Review release 1.4 and store a short report.\nKeep it brief.';
  const h = agentHarness(
    [
      toolTurn([
        call('c1', 'write_report', { name: 'summary', content: 'All good' }),
        call('c2', 'delete_repository', {}),
        call('c3', 'write_report', '{"name": "x", '),
        call('c4', 'write_report', { name: 'missing content' }),
        call('c5', 'http_get', { url: 'https://example.com/' }),
      ]),
      finalAnswer('Done: report stored.'),
    ],
    { execution: { task, permissions: ['lineage:read', 'repo:read', 'document:*'] } },
  );
  beforeAll(() => h.run());

  it('records every call with its verdict and exact reason, in order', () => {
    const calls = h.stored().execution.tool_calls;
    expect(calls.map((c) => [c.seq, c.call_id, c.tool, c.verdict, c.reason, c.capability])).toEqual([
      [1, 'c1', 'write_report', 'allowed', null, 'document:write:reports'],
      [2, 'c2', 'delete_repository', 'denied', 'unknown_tool', null],
      [3, 'c3', 'write_report', 'denied', 'invalid_arguments', 'document:write:reports'],
      [4, 'c4', 'write_report', 'denied', 'invalid_arguments', 'document:write:reports'],
      [5, 'c5', 'http_get', 'denied', 'capability_not_granted', 'network:http:get'],
    ]);
    expect(calls[0].arguments).toEqual({ name: 'summary', content: 'All good' });
    expect(calls[2].arguments).toBe('{"name": "x", ');
    expect(calls.slice(1).every((c) => c.output === null && c.result_digest === null && c.certificate_id === null)).toBe(true);
  });

  it('runs the allowed call, stores its artifact and digests its output', () => {
    const { execution } = h.stored();
    expect(execution.artifacts).toEqual([{ kind: 'report', name: 'summary', content: 'All good', digest: sha256Hex('All good') }]);
    const [first] = execution.tool_calls;
    expect(first.output).toContain(sha256Hex('All good'));
    expect(first.result_digest).toBe(sha256Hex(first.output!));
  });

  it('answers every call id to the model, denials with DENIED: <reason>', () => {
    const second = h.provider.requests[1].messages;
    expect(
      second.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content.startsWith('Stored report') ? 'ok' : m.content]),
    ).toEqual([
      ['c1', 'ok'],
      ['c2', 'DENIED: unknown_tool'],
      ['c3', 'DENIED: invalid_arguments'],
      ['c4', 'DENIED: invalid_arguments'],
      ['c5', 'DENIED: capability_not_granted'],
    ]);
  });

  it('sends the task verbatim as the first user message and offers only granted tools', () => {
    const [first] = h.provider.requests;
    expect(first.messages).toEqual([{ role: 'user', content: task }]);
    expect(first.system).toContain('"default"');
    expect(first.tools.map((t) => t.name).sort()).toEqual(['read_upstream', 'repo_list_changes', 'repo_read_file', 'write_report']);
    expect(first.tools.find((t) => t.name === 'write_report')!.parameters).toMatchObject({ type: 'object', required: ['name', 'content'] });
  });

  it('completes with the final answer, compliant under a warning policy', () => {
    const { execution, outcome } = h.stored();
    expect(execution).toMatchObject({ status: 'completed', verdict: 'compliant', output: 'Done: report stored.', error: null });
    expect(outcome!.violations).toEqual([]);
    expect(execution.cost_cents).toBe(2);
  });

  it('certifies the allowed call and the execution, chained, over the digests of all entries', () => {
    const { execution } = h.stored();
    const [toolCert, executionCert] = execution.certificates;
    expect(execution.certificates).toHaveLength(2);
    expect(toolCert).toMatchObject({ kind: 'tool_call', theorem: 'action_safe', id: execution.tool_calls[0].certificate_id });
    expect(predicateOf(toolCert)).toMatchObject({
      seq: 1,
      prev: null,
      verified_properties: expect.arrayContaining(['tool_known', 'capability_granted', 'arguments_safe']),
    });
    expect(executionCert).toMatchObject({ kind: 'execution', theorem: 'final_output_safe' });
    expect(predicateOf(executionCert)).toMatchObject({
      verdict: 'compliant',
      prev: { sha256: toolCert.digest },
      cost_cents: 2,
      tool_calls: execution.tool_calls.map((call) => ({ sha256: toolCallDigest(call) })),
    });
  });
});

describe('runExecution: start', () => {
  it('does nothing for an execution that is not queued or running', async () => {
    const h = agentHarness([finalAnswer('never')], { execution: { status: 'cancelled' } });
    await h.run();
    expect(h.provider.requests).toHaveLength(0);
    expect(h.stored().execution.status).toBe('cancelled');
  });

  it('keeps a journal that already holds the task as its first message as it is', async () => {
    const h = agentHarness([finalAnswer('ok')], {
      state: { transcript: [{ role: 'user', content: 'Summarise the change and write a report.' }] },
    });
    await h.run();
    expect(h.provider.requests[0].messages).toEqual([{ role: 'user', content: 'Summarise the change and write a report.' }]);
  });

  it('answers a final answer with no tool calls at once and asks nothing more', async () => {
    const h = agentHarness([finalAnswer('Nothing to do.')], { policy: defaultPolicy() });
    await h.run();
    expect(h.stored().execution).toMatchObject({ status: 'completed', output: 'Nothing to do.', tool_calls: [] });
    expect(h.provider.requests).toHaveLength(1);
  });
});
