import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { agentHarness, defaultPolicy, hipaaPolicy } from './support/agent-harness.js';
import { predicateOf } from './support/predicate-of.js';

const PRIVATE_KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');
const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}xYz987`;

describe('verdict', () => {
  it('is non_compliant under hipaa when a call was denied (blocking severity)', async () => {
    const policy = hipaaPolicy();
    const h = agentHarness(
      [
        toolTurn([call('c1', 'http_get', { url: 'https://example.com/' }), call('c2', 'write_report', { name: 'r', content: 'ok' })]),
        finalAnswer('Report written.'),
      ],
      { policy },
    );
    await h.run();
    const { execution, outcome } = h.stored();
    expect(execution.tool_calls.map((c) => [c.verdict, c.reason])).toEqual([
      ['denied', 'forbidden_by_policy'],
      ['allowed', null],
    ]);
    expect(execution).toMatchObject({ status: 'completed', verdict: 'non_compliant' });
    expect(outcome!.violations).toEqual(['denied_call:1:forbidden_by_policy']);
  });

  it('is compliant for a clean run under the default policy, and for a denial there (warning severity)', async () => {
    const clean = agentHarness([toolTurn([call('c1', 'write_report', { name: 'r', content: 'fine' })]), finalAnswer('All fine.')]);
    await clean.run();
    expect(clean.stored().execution).toMatchObject({ status: 'completed', verdict: 'compliant' });
    const warned = agentHarness([toolTurn([call('c1', 'no_such_tool')]), finalAnswer('All fine.')], { policy: defaultPolicy() });
    await warned.run();
    expect(warned.stored().execution).toMatchObject({ status: 'completed', verdict: 'compliant' });
  });

  it.each([
    ['a private key block', `Here is the deploy key:\n${PRIVATE_KEY}`, 'secrets:private_key'],
    ['a GitHub token', `Use token ${GITHUB_TOKEN} for the API.`, 'secrets:github_token'],
  ])('is non_compliant when the final output contains %s', async (_what, output, hit) => {
    const h = agentHarness([finalAnswer(output)]);
    await h.run();
    const { execution, outcome } = h.stored();
    expect(execution).toMatchObject({ status: 'completed', verdict: 'non_compliant', output });
    expect(outcome!.violations).toEqual([`output_rule:${hit}:final_output`]);
  });

  it('is non_compliant when a tool output or an artifact hits an output rule', async () => {
    const h = agentHarness([
      toolTurn([call('c1', 'write_report', { name: 'leak', content: `aws AKIA${'ABCDEFGHIJKLMNOP'}` })]),
      finalAnswer('Stored.'),
    ]);
    await h.run();
    // The model wrote it into the tool's input as well: recorded replaced, and a violation there too.
    expect(h.stored().outcome!.violations).toEqual([
      'output_rule:secrets:aws_access_key:tool_call_arguments:1',
      'output_rule:secrets:aws_access_key:artifact:leak',
    ]);
  });

  it("is non_compliant when a call's arguments or an artifact's name hold a secret, recorded and signed with it replaced", async () => {
    const h = agentHarness([
      toolTurn([call('c1', 'write_report', { name: `key ${GITHUB_TOKEN}`, content: 'clean report' })]),
      finalAnswer('Stored.'),
    ]);
    await h.run();
    const { execution, outcome } = h.stored();
    expect(outcome!.violations).toEqual([
      'output_rule:secrets:github_token:tool_call_arguments:1',
      'output_rule:secrets:github_token:artifact:key [REDACTED:secrets:github_token]',
    ]);
    expect(execution.tool_calls[0].arguments).toEqual({ name: 'key [REDACTED:secrets:github_token]', content: 'clean report' });
    const signed = execution.certificates.map((c) => Buffer.from(c.envelope.payload, 'base64').toString('utf8')).join('\n');
    expect(signed).toContain('[REDACTED:secrets:github_token]');
    expect(signed).not.toContain(GITHUB_TOKEN);
  });

  it('applies the PII rule under hipaa only', async () => {
    const output = 'Patient SSN 123-45-6789, reach her at jane.doe@hospital.org.';
    const regulated = agentHarness([finalAnswer(output)], { policy: hipaaPolicy() });
    await regulated.run();
    expect(regulated.stored().outcome!.violations).toEqual(['output_rule:pii:us_ssn:final_output', 'output_rule:pii:email:final_output']);
    const general = agentHarness([finalAnswer(output)]);
    await general.run();
    expect(general.stored().execution.verdict).toBe('compliant');
  });

  it('certifies the verdict and the violations behind it, as recorded, in the execution certificate', async () => {
    const h = agentHarness([finalAnswer(`token ${GITHUB_TOKEN}`)]);
    await h.run();
    const certificate = h.stored().execution.certificates.at(-1)!;
    expect(predicateOf(certificate)).toMatchObject({
      verdict: 'non_compliant',
      violations: ['output_rule:secrets:github_token:final_output'],
    });
    expect(predicateOf(certificate).violations).toEqual(h.stored().outcome!.violations);
  });
});
