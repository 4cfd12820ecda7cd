import { promptSize, reservationCents, usageCents } from '../../core/agent/budget.js';
import type { ChatMessage } from '../../core/agent/provider.js';
import { BUILT_IN_PRICES, mergePrices, priceFor, priceTableSchema } from '../../core/agent/prices.js';

describe('prices', () => {
  it('price the models named in the design', () => {
    for (const model of [
      'gpt-4o-mini',
      'gpt-4o',
      'gpt-4.1',
      'gpt-4.1-mini',
      'o4-mini',
      'claude-3-5-haiku-latest',
      'claude-3-5-sonnet-latest',
      'claude-sonnet-4',
      'claude-opus-4',
    ]) {
      expect(priceFor(BUILT_IN_PRICES, model)).toBeDefined();
    }
  });

  it('price a dated snapshot as its family, and nothing else', () => {
    expect(priceFor(BUILT_IN_PRICES, 'gpt-4o-2024-08-06')).toBe(BUILT_IN_PRICES['gpt-4o']);
    expect(priceFor(BUILT_IN_PRICES, 'claude-sonnet-4-20250514')).toBe(BUILT_IN_PRICES['claude-sonnet-4']);
    expect(priceFor(BUILT_IN_PRICES, 'gpt-4o-turbo-ultra')).toBeUndefined();
    expect(priceFor(BUILT_IN_PRICES, 'toString')).toBeUndefined();
  });

  it('let the prices file override and extend the built-in table', () => {
    const merged = mergePrices(
      BUILT_IN_PRICES,
      priceTableSchema.parse({ 'gpt-4o': { input: 1, output: 2 }, 'qwen2.5-coder': { input: 0, output: 0 } }),
    );
    expect(merged['gpt-4o']).toEqual({ input: 1, output: 2 });
    expect(merged['qwen2.5-coder']).toEqual({ input: 0, output: 0 });
    expect(merged['gpt-4o-mini']).toBe(BUILT_IN_PRICES['gpt-4o-mini']);
    expect(priceTableSchema.safeParse({ m: { input: -1, output: 1 } }).success).toBe(false);
  });
});

describe('cost', () => {
  it('prices every Anthropic bucket, rounding the call up to a whole cent', () => {
    // 10,000 x 300 + 2,000 x 1500 + 100,000 x 30 + 20,000 x 375 = 16.5 cents -> 17
    const cents = usageCents(BUILT_IN_PRICES['claude-sonnet-4'], {
      inputTokens: 10_000,
      outputTokens: 2_000,
      cacheReadTokens: 100_000,
      cacheWriteTokens: 20_000,
    });
    expect(cents).toBe(17);
  });

  it('prices OpenAI cached prompt tokens at the cached rate', () => {
    // gpt-4o: 1,000,000 uncached x 250 + 1,000,000 cached x 125 = 375 cents
    expect(
      usageCents(BUILT_IN_PRICES['gpt-4o'], { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 1_000_000, cacheWriteTokens: 0 }),
    ).toBe(375);
  });

  it('does not round exact cents up through float noise, and charges a started cent', () => {
    expect(usageCents({ input: 7.5, output: 0 }, { inputTokens: 400_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBe(
      3,
    );
    expect(usageCents(BUILT_IN_PRICES['gpt-4o-mini'], { inputTokens: 1, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBe(
      1,
    );
    expect(usageCents(BUILT_IN_PRICES['gpt-4o-mini'], { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBe(
      0,
    );
  });

  it('reserves the worst case: every input token at the full rate plus max_tokens of output', () => {
    expect(reservationCents(BUILT_IN_PRICES['claude-opus-4'], 10_000, 4096)).toBe(Math.ceil((10_000 * 1500 + 4096 * 7500) / 1e6));
  });
});

describe('input token estimate', () => {
  const system = 'You are a careful agent. Budget: 100 cents.';
  const tools = [
    { name: 'write_report', description: 'Writes "the" report', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
  ];
  const messages: ChatMessage[] = [
    { role: 'user', content: 'Summarise the release — naïvely, with "quotes"' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', name: 'write_report', arguments: '{"text":"ok"}' }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'written\n\u0001 ✓' },
    { role: 'assistant', content: 'Done.', tool_calls: [] },
  ];
  const exact = (count: number) => Math.ceil(JSON.stringify({ system, messages: messages.slice(0, count), tools }).length / 3);

  it('is the prompt JSON length / 3, rounded up', () => {
    expect(promptSize({ system, tools }, messages).tokens()).toBe(exact(messages.length));
    expect(promptSize({ system, tools }, []).tokens()).toBe(exact(0));
  });

  it('stays exact as a run adds its messages one by one', () => {
    const size = promptSize({ system, tools }, messages.slice(0, 1));
    expect(size.tokens()).toBe(exact(1));
    for (let count = 2; count <= messages.length; count++) {
      size.add(messages[count - 1]);
      expect(size.tokens()).toBe(exact(count));
    }
  });
});
