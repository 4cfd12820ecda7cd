import { computedPathGlobs, MAX_COMPUTED_PATHS } from '../../core/hooks/computed-paths.js';
import { toolAction } from '../../core/hooks/tool-action.js';
import { firstMatchingRule, type ToolRule } from '../../core/policies/tool-rules.js';
import { PROBE_ROOT as ROOT, ruleIndex } from './support/probe-rules.js';

// What a shell line computes as it runs: a security probe read `.env` and wrote a workflow through variables and command output (docs/agent-hooks.md, "Shell commands and files").
const rules: ToolRule[] = [
  { match: { read: '.env*' }, verdict: 'deny' },
  { match: { write: '.github/workflows/**' }, verdict: 'ask' },
];
const rule = (command: string, cwd = ROOT) => ruleIndex(command, rules, cwd);

describe('a path the line computes is every path it could be', () => {
  it.each([
    'f=.env; cat $f',
    'x=.env && cat "$x"',
    'f=.e; cat ${f}nv',
    'cat "$(echo .env)"',
    "cat $(printf '.%s' env)",
    'cat `echo .env`',
    'cat a`echo /../.env`',
    'cat ~/../$(whoami)/.env',
    'cat $((1))',
    "find . -name '.env' -exec cat {} \\;",
    'find . -name .env | xargs cat',
    'ls -a | grep env | xargs -r cat',
    'xargs -a .env echo',
  ])('%j reads what `read: ".env*"` refuses', (command) => {
    expect(rule(command)).toBe(0);
  });

  it.each([
    'D=.github/workflows; cd $D && echo x > ci.yml',
    'cd "$(git rev-parse --show-toplevel)/.github" && cd workflows && echo x > ci.yml',
    'echo x > "$D/ci.yml"',
    'cp x.yml "$HOME/../$USER/shop/.github/workflows/"',
    'cd $D/../workflows; tee ci.yml < x',
  ])('%j writes what `write: ".github/workflows/**"` asks for', (command) => {
    expect(rule(command)).toBe(1);
  });

  it('holds from a working directory below the repository root too', () => {
    expect(rule('echo x > "$D/workflows/ci.yml"', `${ROOT}/src`)).toBe(1);
    expect(rule('cat $f', `${ROOT}/src`)).toBe(0);
  });

  it.each([
    'cat "$HOME/notes.txt"',
    'echo "$SECRET_NAME" > out.txt',
    'cat "$TMPDIR"/report.md',
    'git commit -m "$(cat msg.txt)"',
    'echo `date` > log.txt',
  ])('%j is narrowed by what follows its last expansion: no rule holds', (command) => {
    expect(rule(command)).toBeNull();
  });

  it('narrows a computed path by what follows its last expansion, not by what comes before', () => {
    expect(computedPathGlobs('$HOME/notes.txt')).toEqual(['**/notes.txt', '/**/notes.txt']);
    expect(computedPathGlobs('src/$f')).toEqual(['**/{.,}*', '/**/{.,}*']);
    expect(computedPathGlobs('${f}nv')).toEqual(['**/{.,}*nv', '/**/{.,}*nv']);
    expect(computedPathGlobs('$D/a/../ci.yml')).toEqual(['**/ci.yml', '/**/ci.yml']);
    expect(computedPathGlobs('${x/a/b}/c')).toEqual(['**/c', '/**/c']);
  });

  it('refuses a line of more computed paths than shipgate compares', () => {
    const line = (n: number) => `cat ${Array.from({ length: n }, (_, i) => `$x/a${i}`).join(' ')}`;
    expect(toolAction('Bash', { command: line(MAX_COMPUTED_PATHS) }, ROOT).malformed).toBeUndefined();
    expect(toolAction('Bash', { command: line(MAX_COMPUTED_PATHS + 1) }, ROOT).malformed).toMatch(/more paths than shipgate reads/);
  });

  it('lets an allow rule cover a computed path only where it allows every path', () => {
    const allowing = (read: string): ToolRule[] => [{ match: { command: 'cat *', read }, verdict: 'allow' }];
    const verdict = (policy: ToolRule[]) =>
      firstMatchingRule(policy, toolAction('Bash', { command: 'cat $f' }, ROOT))?.rule.verdict ?? null;
    expect(verdict(allowing('src/**'))).toBeNull();
    expect(verdict(allowing('**'))).toBe('allow');
  });
});

describe("find's {}: the files its one -name names, else any file", () => {
  it.each([
    ["find . -name '.env*' -exec cat {} \\;", 0],
    ["find . -name '*' -exec cat {} \\;", 0],
    ["find . -name '*.env' -exec cat {} +", 0],
    ["find . -iname '.ENV' -exec cat {} +", 0],
    ["find . -name '*.ts' -o -name '.env' -exec cat {} \\;", 0],
    ["find . ! -name '*.ts' -exec cat {} \\;", 0],
    ["find . -path '*/.env' -exec cat {} \\;", 0],
    // find's star names hidden files: `*.ts` names `.env.ts`, `*.local` `.env.local`.
    ["find src -name '*.local' -exec cat {} +", 0],
    ["find src -name '*.ts' -exec grep -l TODO {} +", 0],
    ["find .github -name 'ci.yml' -exec sed -i s/a/b/ {} +", 1],
    ["find src -name 'index.ts' -exec grep -l TODO {} +", null],
    ["find . -type f -name 'README*' -exec wc -l {} \\;", null],
  ])('%j', (command, index) => {
    expect(rule(command)).toBe(index);
  });
});
