import type { ToolRule } from '../../core/policies/tool-rules.js';
import { toolAction } from '../../core/hooks/tool-action.js';
import { PROBE_ROOT, ruleIndex } from './support/probe-rules.js';

// A program's leading options, which a security probe ran risky commands behind (docs/agent-hooks.md, "tool_rules").
const rule = (command: string, policy: ToolRule[]) => ruleIndex(command, policy);

describe("a command's leading options are read past, for the rules that refuse (core/hooks/leading-options.ts)", () => {
  const risky: ToolRule[] = [
    { match: { command: 'terraform apply*' }, verdict: 'deny' },
    { match: { command: 'kubectl delete*' }, verdict: 'ask' },
    { match: { command: 'npm publish*' }, verdict: 'deny' },
  ];

  it.each([
    ['terraform -chdir=infra apply', 0],
    ['terraform -chdir infra apply -auto-approve', 0],
    ['sudo kubectl -n prod delete pod api-0', 1],
    ['kubectl --context prod --namespace api delete deployment api', 1],
    ['npm --registry https://registry.example.com publish', 2],
    ['npm --silent -w packages/api publish', 2],
  ])('%j meets rule %j', (command, index) => {
    expect(rule(command, risky)).toBe(index);
  });

  it.each(['terraform -chdir=infra plan', 'kubectl -n prod get pods', 'npm --prefix . install'])('%j meets none', (command) => {
    expect(rule(command, risky)).toBeNull();
  });

  it('is no form an allow rule is matched against', () => {
    const allow: ToolRule[] = [{ match: { command: 'kubectl get*' }, verdict: 'allow' }];
    expect(rule('kubectl -n prod get pods', allow)).toBeNull();
    expect(toolAction('Bash', { command: 'kubectl -n prod get pods' }, PROBE_ROOT).simpleCommands).toEqual([
      ['kubectl -n prod get pods', 'kubectl -n prod get pods'],
    ]);
  });
});
