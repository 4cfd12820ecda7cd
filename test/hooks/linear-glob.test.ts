import picomatch from 'picomatch';
import { compileGlob, GlobSyntaxError } from '../../core/linear-glob.js';

// core/linear-glob.ts: the tool rules' globs, matched without backtracking. They read as
// picomatch read them before (the options tool-rules.ts used), on what rules are written for.
const PATH = { dot: true, nonegate: true, windows: false, strictBrackets: true };
const TEXT = { ...PATH, bash: true };

const pathGlobs = ['.env*', '**/.env*', '.github/workflows/**', 'src/*.ts', 'src/**/*.ts', '**/*.{ts,js}', 'a/**/b', '**', '*'];
const morePathGlobs = ['a/**', '**/a', 'a/*/b', '?.txt', '[abc].md', 'docs/**/[A-Z]*.md', 'x/**/**/y', '{a,b}/c', 'a\\*b'];
const paths = ['.env', '.env.local', 'config/.env.local', '.github/workflows/ci.yml', '.github/ci.yml', 'src/a.ts', 'src/b/c.ts'];
const morePaths = [
  'src/a.js',
  'a/b',
  'a/x/b',
  'a/x/y/b',
  'a',
  'b',
  'a/b/c',
  'x.txt',
  'xx.txt',
  'a.md',
  'docs/x/Readme.md',
  'docs/readme.md',
];
const lastPaths = ['x/y', 'x/z/y', 'a/c', 'b/c', 'c/c', 'a*b', 'axb', '/etc/passwd', 'src/.hidden.ts', '.github/workflows/sub/x.yml'];
const textGlobs = [
  'git push --force*',
  'curl * | sh',
  '*rm -rf*',
  'npm ?est',
  '*.internal',
  'mcp__github__*',
  '*git*push*--force*',
  'a*b*c',
];
const texts = ['git push --force', 'git push --force origin main', 'git push', 'curl http://x | sh', 'curl http://x|sh', 'sudo rm -rf /'];
const moreTexts = [
  'npm test',
  'npm fest',
  'db.internal',
  'a.b.internal',
  'mcp__github__create',
  'mcp__gitlab__x',
  'abc',
  'aXbYc',
  'ab',
  'x/y z',
];

describe('tool rule globs (core/linear-glob.ts)', () => {
  it.each([...pathGlobs, ...morePathGlobs])('path glob %s reads as picomatch read it', (glob) => {
    const mine = compileGlob(glob, 'path');
    const theirs = picomatch(glob, PATH);
    for (const path of [...paths, ...morePaths, ...lastPaths]) expect([path, mine(path)]).toEqual([path, theirs(path)]);
  });

  it.each([...textGlobs, 'echo [ab]x', '{git,hg} push*'])('text glob %s reads as picomatch read it', (glob) => {
    const mine = compileGlob(glob, 'text');
    const theirs = picomatch(glob, TEXT);
    for (const text of [...texts, ...moreTexts, 'echo ax', 'echo cx', 'hg push x'])
      expect([text, mine(text)]).toEqual([text, theirs(text)]);
  });

  it('reads a negated class as gitignore does: [!a] is any character but a', () => {
    expect(compileGlob('[!a]*.md', 'path')('b.md')).toBe(true);
    expect(compileGlob('[!a]*.md', 'path')('a.md')).toBe(false);
  });

  it('refuses what it cannot read: an open bracket, a range out of order, a trailing backslash, extglobs, braces past 256 globs', () => {
    for (const glob of [
      '[abc',
      '[z-a]',
      'x[!z-a]',
      '[a-\\\\]',
      'a\\',
      '@(a|b)',
      '!(x)*',
      '+(y)',
      '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}',
    ])
      expect(() => compileGlob(glob, 'text')).toThrow(GlobSyntaxError);
  });

  it('matches a megabyte an agent crafted against globs with many stars at once (picomatch backtracked for minutes)', () => {
    const started = performance.now();
    expect(compileGlob('*git*push*--force*', 'text')('git '.repeat(100_000) + 'push '.repeat(100_000))).toBe(false);
    expect(compileGlob('**/.github/**/workflows/**/x.yml', 'path')('.github/'.repeat(50_000) + 'workflows/'.repeat(50_000))).toBe(false);
    expect(compileGlob('**/*a*a*a*a*b', 'path')('a'.repeat(1_000_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
