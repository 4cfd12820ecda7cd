import { redactSecrets, scanOutput } from '../../core/agent/output-rules.js';

describe('secrets rule', () => {
  it.each([
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE...', 'private_key'],
    ['-----BEGIN PRIVATE KEY-----', 'private_key'],
    ['key AKIAIOSFODNN7EXAMPLE here', 'aws_access_key'],
    [`gho_${'x'.repeat(36)}`, 'github_token'],
    [`ghs_${'Y'.repeat(36)}`, 'github_token'],
    [`github_pat_11ABCDEFG0${'z'.repeat(40)}`, 'github_token'],
    [`OPENAI_API_KEY=sk-proj-${'a'.repeat(40)}`, 'openai_key'],
    [`xoxb-1234567890-${'a'.repeat(20)}`, 'slack_token'],
    [`sg_${'A'.repeat(43)}`, 'shipgate_key'],
  ])('finds %s', (text, detector) => {
    expect(scanOutput(['secrets'], text)).toContain(`secrets:${detector}`);
  });

  it('finds nothing in ordinary prose and code', () => {
    expect(scanOutput(['secrets'], 'The public key block -----BEGIN PUBLIC KEY----- is fine; ask-for-help; task-123; sk-short.')).toEqual(
      [],
    );
  });

  it('redacts secrets and given literals from messages', () => {
    expect(redactSecrets(`bad key sk-proj-${'b'.repeat(30)} or hunter2hunter2`, ['hunter2hunter2'])).toBe(
      'bad key [REDACTED] or [REDACTED]',
    );
  });
});

describe('pii rule', () => {
  it.each([
    ['SSN 078-05-1120', 'us_ssn'],
    ['card 4111 1111 1111 1111', 'credit_card'],
    ['card 5500-0000-0000-0004', 'credit_card'],
    ['mail john.smith@acme-health.com', 'email'],
    ['call (415) 555-2671', 'phone'],
    ['call +44 20 7946 0958', 'phone'],
  ])('finds %s', (text, detector) => {
    expect(scanOutput(['pii'], text)).toContain(`pii:${detector}`);
  });

  it.each([
    ['a number failing the Luhn check', 'order 4111 1111 1111 1112'],
    ['an invalid SSN area', 'ref 000-12-3456'],
    ['a reserved example address', 'mail dev@example.com or bot@users.noreply.github.com'],
    ['a version and a date', 'v1.2.3 released 2024-05-01, build 20240501'],
    ['a commit sha', 'commit 4f9c3b2a1d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a'],
  ])('ignores %s', (_what, text) => {
    expect(scanOutput(['pii'], text)).toEqual([]);
  });
});

it('reports a rule it does not know instead of passing silently', () => {
  expect(scanOutput(['secrets', 'export_control'], 'hello')).toEqual(['export_control:unknown_rule']);
});
