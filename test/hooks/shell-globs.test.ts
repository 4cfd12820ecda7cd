import { toolAction } from '../../core/hooks/tool-action.js';
import { firstMatchingRule, type ToolRule } from '../../core/policies/tool-rules.js';

const ROOT = '/work/acme-shop';

// Globs bash expands before the command runs: a security probe read `.env` past `deny read .env*` with `cat .e*` (docs/agent-hooks.md, "Shell commands and files").
const rules: ToolRule[] = [
  { match: { read: '.env*' }, verdict: 'deny' },
  { match: { write: '.github/workflows/**' }, verdict: 'ask' },
];
const rule = (command: string, policy = rules) => firstMatchingRule(policy, toolAction('Bash', { command }, ROOT))?.index ?? null;

describe('a glob in a shell line names every file it could expand to', () => {
  it.each([
    ['cat .e*', 0],
    ['cat .en?', 0],
    ['head -n 5 .[e]nv', 0],
    ['cat .{x,e}nv.local', 0],
    ['cat config/../.e*', 0],
    ['cat .*', 0],
    ['cat **/.env', 0],
    ['cp x.yml .github/w*/ci.yml', 1],
    ['echo on: push > .github/workflows/*.yml', 1],
    ['rm -rf .g*', 1],
    ['rm -rf .github/w?rkflows', 1],
  ])('%j is caught', (command, index) => {
    expect(rule(command)).toBe(index);
  });

  it.each(['cat *.md', 'cat src/*.ts', 'cat *', 'rm -rf dist/*', 'cp *.yml backup/'])(
    "%j is not: its names cannot be a rule's (a star names no hidden file, as in bash)",
    (command) => {
      expect(rule(command)).toBeNull();
    },
  );

  it('lets a star name hidden files where the line tells bash to', () => {
    expect(rule('shopt -s dotglob; cat *')).toBe(0);
    // With dotglob a star first may take nothing before a written dot: `*.env` names `.env` itself.
    expect(rule('shopt -s dotglob; cat *.env')).toBe(0);
    expect(rule('shopt -s dotglob; cat ?env')).toBe(0);
    expect(rule('GLOBIGNORE=x; cat *')).toBe(0);
    expect(rule('shopt -s dotglob; rm -rf *')).toBe(1);
    expect(rule('rm -rf *')).toBeNull();
  });

  it('covers a pattern by an allow rule only under a directory it allows whole', () => {
    const allowing = (read: string): ToolRule[] => [{ match: { command: 'cat *', read }, verdict: 'allow' }];
    expect(rule('cat src/*.ts', allowing('src/**'))).toBe(0);
    expect(rule('cat src/*/x.ts', allowing('**'))).toBe(0);
    expect(rule('cat src/*.ts', allowing('src/*.ts'))).toBeNull();
    expect(rule('cat src*/a.ts', allowing('src/**'))).toBeNull();
    expect(rule('cat src/a.ts', allowing('src/*.ts'))).toBe(0);
  });

  it('refuses a line naming more patterns than shipgate compares, rather than letting it through unread', () => {
    const operands = Array.from({ length: 60 }, () => '*a'.repeat(2000)).join(' ');
    expect(rule(`cat ${operands}`, [{ match: { read: '.env*[a-z]*x*y*z*w' }, verdict: 'deny' }])).toBe(0);
    expect(rule('cat *a*a', [{ match: { read: '.env*[a-z]*x*y*z*w' }, verdict: 'deny' }])).toBeNull();
  });
});

describe('moving, compressing and splitting a file read it', () => {
  it.each([
    ['mv .env x', 0],
    ['mv -t /tmp .env', 0],
    ['Move-Item -Path .env -Destination x', 0],
    ['gzip -c .env', 0],
    ['xz -k .env.local', 0],
    ['split -l 1 .env part', 0],
    ['mv README.md docs/', null],
  ])('%j', (command, index) => {
    expect(rule(command)).toBe(index);
  });
});
