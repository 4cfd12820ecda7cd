import { createSdkMcpUpstreamClient } from '../../net/sdk-mcp-upstream-client.js';

// docs/mcp-gateway.md, "Limits": the gateway checks an upstream tool's arguments against its input schema, but does
// not run the upstream's regular expressions. An upstream chose `^(a+)+$` and an agent sent "aaa…a!": the check ran
// on the event loop for seconds per character added (minutes at 40), and every request of the server waited.
describe("an upstream's input schema", () => {
  const { checkArguments } = createSdkMcpUpstreamClient();
  const schema = (property: Record<string, unknown>) => ({ type: 'object', properties: { x: property }, required: ['x'] });

  it('is checked for every keyword but its regular expressions, which the upstream checks itself', () => {
    expect(checkArguments(schema({ type: 'string', pattern: '^b+$' }), { x: 'not b' })).toBeNull();
    expect(checkArguments(schema({ type: 'string', pattern: '^(a+)+$' }), { x: `${'a'.repeat(28)}!` })).toBeNull();
    expect(
      checkArguments({ type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } }, { [`${'a'.repeat(28)}!`]: 'v' }),
    ).toBeNull();
    expect(checkArguments(schema({ type: 'string', pattern: '^b+$', maxLength: 3 }), { x: 'toolong' })).toMatch(
      /must NOT have more than 3 characters/,
    );
    expect(checkArguments(schema({ type: 'integer' }), { x: 'one' })).toMatch(/must be integer/);
    expect(checkArguments(schema({ type: 'string', format: 'email' }), { x: 'nobody' })).toMatch(/must match format "email"/);
  });
});
