import type { HookDeps, HookTerms } from '../../core/hooks/hook-ports.js';
import type { HookToolCall } from '../../core/hooks/hook-call.js';
import { openAhead } from '../../core/hooks/open-ahead.js';
import type { Policy } from '../../core/policies/policy.js';
import { preToolUse } from '../../core/hooks/pre-tool-use.js';
import { createSessionCallQueue } from '../../core/mcp/session-call-queue.js';

const policy: Policy = {
  name: 'hooks',
  version: 1,
  description: '',
  ceiling: ['shell:exec', 'fs:*'],
  defaults: [],
  forbidden: [],
  denied_call_severity: 'warning',
  output_rules: [],
  max_tool_calls: 50,
  max_budget_cents: 0,
  retention_days: 30,
  tool_rules: [
    { match: { command: 'git push --force*' }, verdict: 'deny' },
    { match: { write: 'deploy/**' }, verdict: 'ask' },
  ],
};
const terms: HookTerms = { policy, policyRef: { name: 'hooks', version: 1, digest: 'd' }, permissions: ['shell:exec', 'fs:*'] };
const NOW = new Date('2026-11-29T10:00:00.000Z');
const call = (tool: string, input: Record<string, unknown>): HookToolCall => ({
  cliSessionId: 'run-1',
  cwd: '/work/repo',
  tool,
  input,
  toolUseId: 'toolu_1',
  agentId: null,
});

describe('a call opened with its credential (core/hooks/open-ahead.ts)', () => {
  it('is the row of a call the policy alone allows, and none for a rule, an ask or a missing capability', () => {
    expect(openAhead(terms, '/work/repo', 'session-1', call('Bash', { command: 'echo hi' }), NOW)).toEqual({
      execution_id: 'session-1',
      call_id: 'toolu_1',
      tool: 'Bash',
      agent_id: null,
      arguments: { command: 'echo hi' },
      capability: 'shell:exec',
      approved_by: null,
      requested_at: NOW,
    });
    expect(openAhead(terms, '/work/repo', 'session-1', call('Bash', { command: 'git push --force origin main' }), NOW)).toBeNull();
    expect(
      openAhead(terms, '/work/repo', 'session-1', call('Write', { file_path: '/work/repo/deploy/prod.yml', content: '' }), NOW),
    ).toBeNull();
    expect(openAhead(terms, '/work/repo', 'session-1', call('WebFetch', { url: 'https://example.com' }), NOW)).toBeNull();
  });

  it('is discarded when the decision, on the state its statement read, does not allow it; kept without a second write when it does', async () => {
    const discarded: string[] = [];
    const opened: string[] = [];
    const deps = {
      hookCalls: {
        open: async () => 'written',
        findOpen: async () => null,
        discard: async (id: string) => void discarded.push(id),
        opened: (_call: unknown, id: string) => void opened.push(id),
      },
      calls: createSessionCallQueue(),
      now: () => NOW,
      log: () => undefined,
      rootOf: async () => '/work/repo',
    } as unknown as HookDeps;
    const bash = call('Bash', { command: 'echo hi' });
    const ahead = { call: openAhead(terms, '/work/repo', 'session-1', bash, NOW)!, id: 'row-1' };
    const state = {
      id: 'session-1',
      owner_id: 'u',
      owner_active: true,
      status: 'running' as const,
      repo_root: 'acme/repo',
      branch: null,
      servers: [],
      max_tool_calls: 50,
      expires_at: '2026-11-29T11:00:00.000Z',
      next_seq: 1,
      calls_taken: 0,
      last_certificate_digest: null,
      servers_version: '',
    };
    const ended = await preToolUse(deps, { state: { ...state, expires_at: '2026-11-29T09:59:59.000Z' }, readAt: 0 }, terms, bash, ahead);
    expect([ended.decision, discarded, opened]).toEqual(['deny', ['row-1'], []]);
    const allowed = await preToolUse(deps, { state, readAt: 0 }, terms, bash, { ...ahead, id: 'row-2' });
    expect([allowed.decision, discarded, opened]).toEqual(['allow', ['row-1'], ['row-2']]);
  });
});
