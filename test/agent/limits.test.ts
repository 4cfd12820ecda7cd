import { ProviderError } from '../../core/agent/provider.js';
import { call, finalAnswer, toolTurn, usage } from '../support/scripted-provider.js';
import { agentHarness, defaultPolicy } from './support/agent-harness.js';

const report = (n: number) => call(`r${n}`, 'write_report', { name: `r${n}`, content: 'x' });

describe('budget', () => {
  it('fails budget_exceeded, non_compliant, when the next call cannot be reserved', async () => {
    // claude-opus-4: 4096 output tokens alone may cost 31 cents; 20 remain after the first turn.
    const h = agentHarness([toolTurn([report(1)], usage(1000, 1000))], {
      execution: { model: 'claude-opus-4', provider: 'anthropic', budget_cents: 40 },
    });
    await h.run();
    const { execution, outcome } = h.stored();
    expect(execution.cost_cents).toBe(9);
    expect(execution).toMatchObject({ status: 'failed', verdict: 'non_compliant', error: { code: 'budget_exceeded' } });
    expect(execution.error!.message).toMatch(/may cost up to \d+ cents; 31 of the 40-cent budget remain/);
    expect(outcome!.violations).toEqual(['budget_exceeded']);
    expect(h.provider.requests).toHaveLength(1);
    expect(execution.tool_calls.map((c) => c.verdict)).toEqual(['allowed']);
  });

  it('refuses the first call when the budget cannot cover it', async () => {
    const h = agentHarness([finalAnswer('never')], { execution: { model: 'claude-opus-4', provider: 'anthropic', budget_cents: 10 } });
    await h.run();
    expect(h.provider.requests).toHaveLength(0);
    expect(h.stored().execution).toMatchObject({ status: 'failed', error: { code: 'budget_exceeded' }, cost_cents: 0 });
  });

  it('denies the calls of a turn that overran the budget as budget_exhausted, answers them, and fails', async () => {
    // gpt-4o-mini: 2,000,000 output tokens reported cost 120 cents against a 100-cent budget.
    const h = agentHarness([toolTurn([report(1), report(2)], usage(100, 2_000_000))], { execution: { budget_cents: 100 } });
    await h.run();
    const { execution, outcome, transcript } = h.stored();
    expect(execution.cost_cents).toBe(121);
    expect(execution.tool_calls.map((c) => [c.verdict, c.reason])).toEqual([
      ['denied', 'budget_exhausted'],
      ['denied', 'budget_exhausted'],
    ]);
    expect(transcript.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'DENIED: budget_exhausted',
      'DENIED: budget_exhausted',
    ]);
    expect(execution).toMatchObject({ status: 'failed', verdict: 'non_compliant', error: { code: 'budget_exceeded' } });
    expect(outcome!.violations).toEqual(['budget_overrun:121>100']);
  });

  it('fails usage_missing when the provider reports no usage, without recording the turn', async () => {
    const h = agentHarness([{ ...finalAnswer('uncounted'), usage: null }]);
    await h.run();
    const { execution, transcript } = h.stored();
    expect(execution).toMatchObject({ status: 'failed', verdict: 'non_compliant', output: null, error: { code: 'usage_missing' } });
    expect(transcript).toEqual([]);
  });
});

describe('tool-call limit', () => {
  it('denies the calls past max_tool_calls as tool_call_limit, answers them, then fails', async () => {
    const h = agentHarness([toolTurn([report(1), report(2)]), toolTurn([report(3), report(4)]), finalAnswer('never reached')], {
      policy: defaultPolicy({ max_tool_calls: 3 }),
    });
    await h.run();
    const { execution, transcript } = h.stored();
    expect(execution.tool_calls.map((c) => [c.seq, c.verdict, c.reason])).toEqual([
      [1, 'allowed', null],
      [2, 'allowed', null],
      [3, 'allowed', null],
      [4, 'denied', 'tool_call_limit'],
    ]);
    expect(transcript.at(-1)).toEqual({ role: 'tool', tool_call_id: 'r4', content: 'DENIED: tool_call_limit' });
    expect(execution).toMatchObject({ status: 'failed', error: { code: 'tool_call_limit' } });
    expect(h.provider.requests).toHaveLength(2);
  });

  it('lets the model give its final answer after using exactly the limit', async () => {
    const h = agentHarness([toolTurn([report(1), report(2)]), finalAnswer('done')], { policy: defaultPolicy({ max_tool_calls: 2 }) });
    await h.run();
    expect(h.stored().execution).toMatchObject({ status: 'completed', output: 'done' });
  });
});

describe('provider failures', () => {
  it('fails provider_error with the message, never the key override', async () => {
    const key = 'sk-override-0123456789abcdef0123';
    const h = agentHarness([new ProviderError(`401 Incorrect API key provided: ${key}`, 401)], {
      execution: { api_key_override: true },
      state: { apiKeyOverride: key },
    });
    await h.run();
    const { execution, outcome, apiKeyOverride } = h.stored();
    expect(execution).toMatchObject({ status: 'failed', verdict: 'compliant', error: { code: 'provider_error' } });
    expect(execution.error!.message).toContain('HTTP 401');
    expect(JSON.stringify(outcome)).not.toContain(key);
    expect(JSON.stringify(h.logs)).not.toContain(key);
    expect(apiKeyOverride).toBeUndefined();
  });

  it('fails provider_not_configured at once when no key exists for the provider', async () => {
    const h = agentHarness([], { provider: false, execution: { provider: 'anthropic', model: 'claude-3-5-haiku-latest' } });
    await h.run();
    const { execution } = h.stored();
    expect(execution).toMatchObject({
      status: 'failed',
      error: { code: 'provider_not_configured', message: "No API key is configured for provider 'anthropic'." },
    });
    expect(execution.certificates.map((c) => c.kind)).toEqual(['execution']);
  });

  it('fails model_price_unknown at once, naming where to add the price', async () => {
    const h = agentHarness([finalAnswer('never')], { execution: { model: 'llama-3-70b-local' } });
    await h.run();
    expect(h.provider.requests).toHaveLength(0);
    expect(h.stored().execution).toMatchObject({
      status: 'failed',
      error: { code: 'model_price_unknown', message: expect.stringMatching(/'llama-3-70b-local'.*SHIPGATE_PRICES_FILE/) },
    });
  });

  it('runs a model priced at zero by the prices file', async () => {
    const h = agentHarness([toolTurn([report(1)], usage(1e6, 1e6)), finalAnswer('free')], {
      execution: { model: 'llama-3-70b-local', budget_cents: 100 },
      prices: { 'llama-3-70b-local': { input: 0, output: 0 } },
    });
    await h.run();
    expect(h.stored().execution).toMatchObject({ status: 'completed', cost_cents: 0 });
  });
});
