import { checkToolAction } from '../../core/hooks/check-tool-action.js';
import { toolAction } from '../../core/hooks/tool-action.js';
import type { Policy } from '../../core/policies/policy.js';
import type { ToolRule } from '../../core/policies/tool-rules.js';
import { PROBE_ROOT as ROOT, ruleIndex } from './support/probe-rules.js';

// A program the shell reader does not know, handed a path: a security probe read `.env` past `read: .env*` with
// each of these (core/hooks/shell-file-access.ts's `handed`; docs/agent-hooks.md, "Shell commands and files").
describe('a path handed to a program the shell reader does not know', () => {
  it.each([
    'python3 -m json.tool .env',
    'python3 -m base64 config/.env.local',
    'node print-file.js .env',
    'deno run -A cat.ts .env',
    './tool --config=.env',
    'bash -x .env',
    'sh .env',
    'make -p -f .env',
    'ruby dump.rb .env',
    'perl dump.pl .env',
    'cd config && node ../dump.js .env.local',
    'uv run dump.py .env',
    // A runner's own words (package-runners.ts's runnerFiles); dotenv loads `.env` when no `-e` names a file.
    'dotenv -e .env -- env',
    'npx dotenv -e config/.env.prod -- printenv',
    'dotenv -- env',
  ])('%j may read it: a deny rule on reading it holds', (command) => {
    expect(ruleIndex(command)).toBe(1);
  });

  it.each([
    'dotenv -e config/app.env -- npm test',
    'test -f .env',
    '[ -f .env ]',
    'ls -la .env',
    'stat .env',
    'echo .env >> .gitignore',
    'realpath .env',
    'cd config && pwd',
  ])('%j only names it: no rule holds', (command) => {
    expect(ruleIndex(command)).toBeNull();
  });

  it.each([
    'node gen.js .github/workflows/ci.yml',
    'python3 gen.py --out .github/workflows/ci.yml',
    'npx prettier --write .github/workflows/ci.yml',
    'black .github/workflows/lint.py',
    'npx degit acme/templates .github/workflows',
  ])('%j may write it: an ask rule on writing it holds', (command) => {
    expect(ruleIndex(command)).toBe(2);
  });

  it('is written for the rules that refuse only: an allow rule naming the command still covers the call', () => {
    const rules: ToolRule[] = [
      { match: { command: 'prettier --write *' }, verdict: 'allow' },
      { match: { write: 'src/**' }, verdict: 'deny' },
    ];
    expect(ruleIndex('prettier --write src/app.ts', rules)).toBe(0);
    expect(ruleIndex('black src/app.py', rules)).toBe(1);
  });

  it('is read for the rules that refuse only: an allow rule naming the command still covers the call', () => {
    const rules: ToolRule[] = [
      { match: { command: 'node scripts/build.js *' }, verdict: 'allow' },
      { match: { command: '*' }, verdict: 'deny' },
    ];
    expect(ruleIndex('node scripts/build.js src/app.ts', rules)).toBe(0);
    expect(toolAction('Bash', { command: 'node scripts/build.js src/app.ts' }, ROOT)).toMatchObject({
      reads: [],
      writes: [],
      alsoRead: ['scripts/build.js', 'src/app.ts'],
      alsoWritten: ['scripts/build.js', 'src/app.ts'],
    });
  });

  it('meets a forbidden file capability outside the repository', () => {
    const policy = { forbidden: ['fs:read:/etc/*'], tool_rules: [] } as unknown as Policy;
    const check = (command: string) =>
      checkToolAction(toolAction('Bash', { command }, ROOT), { policy, permissions: ['shell:exec'] }, 1, 100);
    expect(check('node dump.js /etc/shadow')).toEqual({ denial: { reason: 'forbidden_by_policy', capability: 'fs:read:/etc/shadow' } });
    expect(check('node dump.js /tmp/x')).toEqual({ allowed: true });
  });
});

// A container's copy and a submodule write the local side (core/hooks/container-copies.ts, shell-git-files.ts).
describe("a container's copy and a submodule", () => {
  it.each([
    ['docker cp c:/ci.yml .github/workflows/', 2],
    ['kubectl cp -n ns pod:/ci.yml .github/workflows/ci.yml', 2],
    ['podman cp .env c:/x', 1],
    ['docker cp config c:/app', 1],
    ['git submodule add https://example.com/wf.git .github/workflows', 2],
    ['cd .github && git submodule add https://example.com/workflows.git', 2],
  ])('%j meets rule %j', (command, index) => {
    expect(ruleIndex(command)).toBe(index);
  });

  it.each(['docker cp README.md c:/x', 'kubectl cp ns/pod:/x ./out', 'git submodule add https://example.com/lib.git vendor/lib'])(
    '%j meets none',
    (command) => {
      expect(ruleIndex(command)).toBeNull();
    },
  );
});
