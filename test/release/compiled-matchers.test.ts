import { newCodeownersBudget, parseCodeowners } from '../../core/release/codeowners.js';
import { branchMatcher, pathMatcher, pathsMatching } from '../../core/release/path-globs.js';
import { touchedPaths, type ChangedFile } from '../../core/release/pull-request-files.js';

// A decision judges every rule again on each poll (docs/benchmarks.md, "Goals": 20 rules, 3,000 files): what is
// compiled from a gate or a stored fact is compiled once per process, and matches as picomatch did (core/linear-glob.ts).
describe('matchers compiled once per process', () => {
  it('gives the same compiled matcher for the same globs, matching as before', () => {
    const infra = pathMatcher(['infra/**', '*.tf', 'docs/{a,b}.md']);
    expect(pathMatcher(['infra/**', '*.tf', 'docs/{a,b}.md'])).toBe(infra);
    expect(['infra/main.tf', 'modules/x/vars.tf', 'docs/a.md', 'infra', '.github/x.tf'].map(infra)).toEqual([true, true, true, true, true]);
    expect(['docs/c.md', 'src/infra.ts', 'infrastructure/x'].map(infra)).toEqual([false, false, false]);
    expect(pathMatcher(['.github/workflows/**'])('.github/workflows/ci.yml')).toBe(true);
    expect(pathMatcher([])('anything')).toBe(false);
    const branches = branchMatcher(['main', 'release/*']);
    expect(branchMatcher(['main', 'release/*'])).toBe(branches);
    expect(['main', 'release/1.x', 'release/1.x/hotfix', 'mainline'].map(branches)).toEqual([true, true, false, false]);
  });

  it('matches a pull request path crafted against globs of several ** at once (picomatch took half a second per path)', () => {
    const started = performance.now();
    const protectedPaths = pathMatcher(['**/.github/**/workflows/**/*.yml', '**/*a*a*a*b']);
    expect(protectedPaths(Array(400).fill('.github/workflows').join('/'))).toBe(false);
    expect(protectedPaths(Array(4).fill('a'.repeat(255)).join('/'))).toBe(false);
    expect(protectedPaths('x/.github/y/workflows/ci.yml')).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('filters a path list by a rule’s globs once', () => {
    const paths = ['infra/main.tf', 'infra/README.md', 'docs/a.md'];
    const found = pathsMatching(paths, ['infra/**'], ['**/README.md']);
    expect(found).toEqual(['infra/main.tf']);
    expect(pathsMatching(paths, ['infra/**'], ['**/README.md'])).toBe(found);
    expect(pathsMatching(paths, undefined, ['infra/**'])).toEqual(['docs/a.md']);
    expect(pathsMatching(paths, ['infra/**'])).toEqual(['infra/main.tf', 'infra/README.md']);
  });

  it('parses a CODEOWNERS text once, and finds each path’s owners once', () => {
    const text = '* @acme/platform\n/infra/ @acme/sre\n';
    expect(parseCodeowners(text)).toBe(parseCodeowners(text));
    const owners = parseCodeowners(text).ownersOf('infra/main.tf', newCodeownersBudget());
    expect(owners).toEqual(['@acme/sre']);
    owners.push('@someone'); // a caller's copy: the remembered owners stay as the file says
    expect(parseCodeowners(text).ownersOf('infra/main.tf', newCodeownersBudget())).toEqual(['@acme/sre']);
    expect(parseCodeowners(text).ownersOf('src/x.ts', newCodeownersBudget())).toEqual(['@acme/platform']);
  });

  it('lists a file list’s touched paths once, renames under both names', () => {
    const files: ChangedFile[] = [{ path: 'b.ts', previous_path: 'a.ts', status: 'renamed', additions: 0, deletions: 0 }];
    expect(touchedPaths(files)).toBe(touchedPaths(files));
    expect(touchedPaths(files)).toEqual(['b.ts', 'a.ts']);
  });
});
