import { verifyToolCall, type VerifyContext } from '../../core/agent/verify-tool-call.js';
import { call } from '../support/scripted-provider.js';
import { defaultPolicy, hipaaPolicy } from './support/agent-harness.js';
import { verifyContext } from './support/verify-context.js';

const context = (overrides: Partial<VerifyContext> = {}) => verifyContext(overrides);

const reason = async (c: ReturnType<typeof call>, ctx: VerifyContext) => {
  const v = await verifyToolCall(c, ctx);
  return v.verdict === 'denied' ? v.reason : 'allowed';
};

describe('verifyToolCall', () => {
  it('checks in the fixed order: schema before policy, forbidden before not granted, budget before limit', async () => {
    const hipaa = hipaaPolicy();
    expect(await reason(call('1', 'http_get', { url: 'not a url' }), context({ policy: hipaa, permissions: [] }))).toBe(
      'invalid_arguments',
    );
    expect(await reason(call('1', 'http_get', { url: 'https://example.com' }), context({ policy: hipaa, permissions: [] }))).toBe(
      'forbidden_by_policy',
    );
    expect(
      await reason(call('1', 'write_report', { name: 'a', content: 'b' }), context({ permissions: ['repo:read'], costCents: 500 })),
    ).toBe('capability_not_granted');
    expect(await reason(call('1', 'write_report', { name: 'a', content: 'b' }), context({ costCents: 100, seq: 99 }))).toBe(
      'budget_exhausted',
    );
    expect(await reason(call('1', 'write_report', { name: 'a', content: 'b' }), context({ seq: 51 }))).toBe('tool_call_limit');
    expect(await reason(call('1', 'repo_read_file', { path: '../../etc/passwd' }), context())).toBe('argument_rule:path');
  });

  it('matches capabilities with wildcard segments', async () => {
    const write = call('1', 'write_report', { name: 'a', content: 'b' });
    expect(await reason(write, context({ permissions: ['document:*'] }))).toBe('allowed');
    expect(await reason(write, context({ permissions: ['document:write:*'] }))).toBe('allowed');
    expect(await reason(write, context({ permissions: ['document:read:*'] }))).toBe('capability_not_granted');
    expect(await reason(write, context({ policy: defaultPolicy({ forbidden: ['document:write:reports'] }) }))).toBe('forbidden_by_policy');
  });

  it.each([['/etc/passwd'], ['src/../../x'], ['src\\win'], ['./a'], ['a//b']])('refuses the repository path %s', async (path) => {
    expect(await reason(call('1', 'repo_read_file', { path }), context())).toBe('argument_rule:path');
  });

  it('rejects extra arguments and wrong types as invalid_arguments, and treats blank arguments as {}', async () => {
    expect(await reason(call('1', 'read_upstream', { anything: 1 }), context())).toBe('invalid_arguments');
    expect(await reason(call('1', 'submit_review', { approved_for_release: 'yes', summary: 's' }), context())).toBe('invalid_arguments');
    expect(await reason(call('1', 'write_report', '[1, 2]'), context())).toBe('invalid_arguments');
    expect(await reason(call('1', 'read_upstream', ''), context())).toBe('allowed');
  });

  it('lists the verified properties of an allowed call', async () => {
    const v = await verifyToolCall(call('1', 'write_report', { name: 'a', content: 'b' }), context());
    expect(v).toMatchObject({ verdict: 'allowed', input: { name: 'a', content: 'b' } });
    expect(v.verdict === 'allowed' && v.properties).toEqual([
      'tool_known',
      'arguments_valid',
      'capability_not_forbidden',
      'capability_granted',
      'within_budget',
      'within_call_limit',
      'arguments_safe',
    ]);
  });
});
