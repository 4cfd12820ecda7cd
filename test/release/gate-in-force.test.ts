import { DEFAULT_GATE, defaultGateVersion, type GateVersion } from '../../core/release/gate.js';
import { gateInForce } from '../../core/release/gate-in-force.js';

describe('gateInForce', () => {
  it('is the built-in default as version 0 for a repository that never recorded a gate', () => {
    const gate = gateInForce('acme/web', null);
    expect(gate).toEqual(defaultGateVersion('acme/web'));
    expect(gate).toMatchObject({ repo_root: 'acme/web', version: 0, source: 'default', gate: DEFAULT_GATE });
    expect(gateInForce('acme/web', undefined)).toEqual(gate);
  });

  it('is the recorded version when there is one', () => {
    const recorded: GateVersion = {
      ...defaultGateVersion('acme/web'),
      version: 3,
      source: 'api',
      created_by: 'u1',
      created_at: '2026-01-01T00:00:00.000Z',
    };
    expect(gateInForce('acme/web', recorded)).toBe(recorded);
  });
});
