import type { HookCall, HookCallStore, NewHookCall } from '../../core/hooks/hook-call.js';
import { rememberOpenCalls } from '../../core/hooks/open-call-memory.js';

const call = (callId: string): NewHookCall => ({
  execution_id: 'session-1',
  call_id: callId,
  tool: 'Bash',
  agent_id: null,
  arguments: { command: 'echo hi' },
  capability: 'shell:exec',
  approved_by: null,
  requested_at: new Date('2026-01-01T00:00:00.000Z'),
});

/** A store that says what it was asked: every findOpen reaching it answers `stored`. */
function fakeStore(stored: HookCall | null) {
  const asked: string[] = [];
  const store: Pick<HookCallStore, 'open' | 'findOpen' | 'discard'> = {
    open: async (opened) => `row-${opened.call_id}`,
    discard: async () => undefined,
    findOpen: async (_session, tool, callId) => {
      asked.push(`${tool}/${callId}`);
      return stored;
    },
  };
  return { store, asked };
}

describe('calls allowed in this process (core/hooks/open-call-memory.ts)', () => {
  it('completes a call opened here without reading it back, once; a second post for it reads the store', async () => {
    const { store, asked } = fakeStore(null);
    const memory = rememberOpenCalls(store);
    expect(await memory.open(call('toolu_1'))).toBe('row-toolu_1');
    expect(await memory.findOpen('session-1', 'Bash', 'toolu_1', null)).toEqual({
      ...call('toolu_1'),
      id: 'row-toolu_1',
      requested_at: '2026-01-01T00:00:00.000Z',
    });
    expect(asked).toEqual([]);
    expect(await memory.findOpen('session-1', 'Bash', 'toolu_1', null)).toBeNull();
    expect(asked).toEqual(['Bash/toolu_1']);
  });

  it('reads the store for a call it did not open, of another session, or a post without a call id', async () => {
    const stored = { ...call('toolu_9'), id: 'row-9', requested_at: '2026-01-01T00:00:00.000Z' };
    const { store, asked } = fakeStore(stored);
    const memory = rememberOpenCalls(store);
    await memory.open(call('toolu_1'));
    expect(await memory.findOpen('session-1', 'Bash', 'toolu_9', null)).toBe(stored);
    expect(await memory.findOpen('session-2', 'Bash', 'toolu_1', null)).toBe(stored);
    expect(await memory.findOpen('session-1', 'Bash', null, null)).toBe(stored);
    expect(asked).toEqual(['Bash/toolu_9', 'Bash/toolu_1', 'Bash/null']);
  });

  it('keeps at most its bound, then forgets (those calls are read from the store)', async () => {
    const { store, asked } = fakeStore(null);
    const memory = rememberOpenCalls(store, 2);
    for (const id of ['a', 'b', 'c']) await memory.open(call(id));
    await memory.findOpen('session-1', 'Bash', 'a', null);
    expect(asked).toEqual(['Bash/a']);
    expect(await memory.findOpen('session-1', 'Bash', 'c', null)).not.toBeNull();
  });
});
