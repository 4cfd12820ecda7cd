import { CodeownersBeyondReach, newCodeownersBudget, parseCodeowners } from '../../core/release/codeowners.js';

/** GitHub's example file from "About code owners", line for line (comments shortened). */
const GITHUB_EXAMPLE = `# This is a comment.
# Each line is a file pattern followed by one or more owners.

# These owners will be the default owners for everything in the repo.
*       @global-owner1 @global-owner2

# Order is important; the last matching pattern takes the most precedence.
*.js    @js-owner #This is an inline comment.

# You can also use email addresses if you prefer.
*.go docs@example.com

# Teams can be specified as code owners as well.
*.txt @octo-org/octocats

# @doctocat owns any files in the build/logs directory at the root and any of its subdirectories.
/build/logs/ @doctocat

# The \`docs/*\` pattern will match files like \`docs/getting-started.md\` but not further nested files.
docs/*  docs@example.com

# @octocat owns any file in an apps directory anywhere in your repository.
apps/ @octocat

# @doctocat owns any file in the \`/docs\` directory in the root of your repository and any of its subdirectories.
/docs/ @doctocat

# @octocat owns any file in a \`/logs\` directory such as \`/build/logs\`, \`/scripts/logs\` and \`/deeply/nested/logs\`.
**/logs @octocat

# Any change inside the \`/scripts\` directory will require approval from @doctocat or @octocat.
/scripts/ @doctocat @octocat

# @octocat owns any file in the \`/apps\` directory in the root of your repository except for the \`/apps/github\`
# subdirectory, as its owners are left empty.
/apps/ @octocat
/apps/github
`;

describe('parseCodeowners: GitHub\'s example file ("About code owners")', () => {
  const owners = parseCodeowners(GITHUB_EXAMPLE);

  it('reads every line of it without a problem', () => {
    expect(owners.problems).toEqual([]);
  });

  it('`*` gives the default owners; the last matching line wins over it', () => {
    expect(owners.ownersOf('README.md', newCodeownersBudget())).toEqual(['@global-owner1', '@global-owner2']);
    expect(owners.ownersOf('src/deep/app.js', newCodeownersBudget())).toEqual(['@js-owner']); // the inline comment is no owner
    expect(owners.ownersOf('notes.txt', newCodeownersBudget())).toEqual(['@octo-org/octocats']);
  });

  it('e-mail owners are kept as written', () => {
    expect(owners.ownersOf('cmd/main.go', newCodeownersBudget())).toEqual(['docs@example.com']);
  });

  it('a leading slash anchors to the root, a trailing slash owns everything under the directory', () => {
    expect(owners.ownersOf('build/logs/today.log', newCodeownersBudget())).toEqual(['@octocat']); // **/logs comes later and wins
    expect(owners.ownersOf('scripts/deploy.sh', newCodeownersBudget())).toEqual(['@doctocat', '@octocat']);
    expect(owners.ownersOf('scripts/ci/lint.sh', newCodeownersBudget())).toEqual(['@doctocat', '@octocat']);
    expect(owners.ownersOf('tools/scripts/x.sh', newCodeownersBudget())).toEqual(['@global-owner1', '@global-owner2']);
  });

  it('`docs/*` matches files directly in docs/ only; `/docs/` owns the nested ones', () => {
    const onlyDocsStar = parseCodeowners('docs/*  docs@example.com\n');
    expect(onlyDocsStar.ownersOf('docs/getting-started.md', newCodeownersBudget())).toEqual(['docs@example.com']);
    expect(onlyDocsStar.ownersOf('docs/build-app/troubleshooting.md', newCodeownersBudget())).toEqual([]);
    expect(owners.ownersOf('docs/build-app/troubleshooting.md', newCodeownersBudget())).toEqual(['@doctocat']);
  });

  it('a pattern without a slash but a trailing one matches a directory at any depth', () => {
    const appsAnywhere = parseCodeowners('apps/ @octocat\n');
    expect(appsAnywhere.ownersOf('apps/a.ts', newCodeownersBudget())).toEqual(['@octocat']);
    expect(appsAnywhere.ownersOf('web/apps/x/b.ts', newCodeownersBudget())).toEqual(['@octocat']);
    expect(appsAnywhere.ownersOf('apps', newCodeownersBudget())).toEqual([]); // a file named apps is no directory
  });

  it('`**/logs` matches a logs directory at any depth', () => {
    expect(owners.ownersOf('deeply/nested/logs/x.txt', newCodeownersBudget())).toEqual(['@octocat']);
  });

  it('a matching line without owners means nobody owns the path', () => {
    expect(owners.ownersOf('apps/main.ts', newCodeownersBudget())).toEqual(['@octocat']);
    expect(owners.ownersOf('apps/github/ci.ts', newCodeownersBudget())).toEqual([]);
  });
});

describe('parseCodeowners: gitignore-style patterns', () => {
  const ownersOf = (pattern: string, path: string) => parseCodeowners(`${pattern} @o`).ownersOf(path, newCodeownersBudget()).length > 0;

  it.each([
    ['foo', 'foo', true],
    ['foo', 'bar/foo/baz', true],
    ['foo', 'foo.txt', false],
    ['/foo', 'bar/foo', false],
    ['/foo', 'foo/bar/baz', true],
    ['foo/', 'foo', false],
    ['foo/', 'bar/foo/baz', true],
    ['foo/bar', 'baz/foo/bar', false],
    ['foo/bar', 'foo/bar/baz', true],
    ['/*', 'foo', true],
    ['/*', 'foo/bar', false],
    ['f*', 'bar/foo/baz', true],
    ['f*', 'xfoo', false],
    ['foo/*.txt', 'foo/bar/baz.txt', false],
    ['foo/*/baz', 'foo/bar/baz/qux', true],
    ['foo/*/baz', 'foo/baz', false],
    ['f?o', 'foo', true],
    ['f?o', 'fooo', false],
    ['f\\*o', 'foo', false],
    ['f\\*o', 'f*o', true],
    ['**/foo/bar', 'qux/foo/bar/baz', true],
    ['foo/bar/**', 'foo/bar', false],
    ['foo/bar/**', 'foo/bar/baz/qux', true],
    ['foo/**/bar', 'foo/bar', true],
    ['foo/**/bar', 'foo/a/b/bar/c', true],
    ['foo/**/bar', 'x/foo/bar', false],
    ['*.md', '.github/notes.md', true],
    ['.github/', '.github/workflows/ci.yml', true],
    ['Docs/', 'docs/a.md', false], // paths are case sensitive, as on GitHub
    ['a(b|c)', 'ab', false], // no syntax beyond gitignore's reaches the matcher
    ['a(b|c)', 'a(b|c)', true],
    ['{a,b}', 'a', false],
    ['dir\\ with\\ spaces/', 'dir with spaces/x', true],
    ['hash\\#tag', 'hash#tag', true],
    ['hash#tag', 'hash#tag', true],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(ownersOf(pattern, path)).toBe(expected);
  });
});

describe('parseCodeowners: owners and invalid lines', () => {
  it('owners are lower-cased as written; users, teams and e-mails', () => {
    const owners = parseCodeowners('*  @Ana  @Acme/SRE  Ops@Example.com\n');
    expect(owners.ownersOf('x', newCodeownersBudget())).toEqual(['@ana', '@acme/sre', 'ops@example.com']);
  });

  it('invalid lines are reported with their line numbers and skipped, never thrown; the rest applies', () => {
    const text = [
      '* @ana', // 1
      '!secret/ @bob', // 2: negation does not work
      'src/[ab].ts @bob', // 3: character ranges do not work
      '\\#notes @bob', // 4: an escaped # at the start does not work
      'lib/ ana', // 5: an owner without @ that is no e-mail
      'bin/ @a/b/c', // 6: neither user nor team
      'tail\\', // 7: a dangling escape
      '/ @bob', // 8: names no path
      '   # indented comment', // 9
      '', // 10
      'docs/ @Carol\r', // 11: CRLF endings are fine
    ].join('\n');
    const owners = parseCodeowners(text);
    expect(owners.problems.map((p) => p.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(owners.problems[0].message).toContain('Negation');
    expect(owners.problems[1].message).toContain('Character ranges');
    expect(owners.ownersOf('secret/key', newCodeownersBudget())).toEqual(['@ana']);
    expect(owners.ownersOf('src/a.ts', newCodeownersBudget())).toEqual(['@ana']);
    expect(owners.ownersOf('lib/x', newCodeownersBudget())).toEqual(['@ana']);
    expect(owners.ownersOf('docs/a.md', newCodeownersBudget())).toEqual(['@carol']);
  });

  it('an empty file, or a file of comments, owns nothing', () => {
    expect(parseCodeowners('').ownersOf('a', newCodeownersBudget())).toEqual([]);
    expect(parseCodeowners('# only a comment\n\n').ownersOf('a', newCodeownersBudget())).toEqual([]);
  });

  it('a file of 3 MB or more is not loaded, as on GitHub', () => {
    const owners = parseCodeowners(`* @ana\n${'#'.repeat(3 * 1024 * 1024)}`);
    expect(owners.ownersOf('a', newCodeownersBudget())).toEqual([]);
    expect(owners.problems).toEqual([{ line: 1, message: expect.stringContaining('3 MB') }]);
  });

  it('a leading slash on the asked path is ignored', () => {
    expect(parseCodeowners('/docs/ @ana').ownersOf('/docs/a.md', newCodeownersBudget())).toEqual(['@ana']);
  });
});
describe('what finding owners may cost (docs/release-gate.md, "Code owners")', () => {
  it('passes over a line whose literal part the path lacks, and answers 2,000 directory lines against 3,000 paths (25 s of matching before)', () => {
    const owners = parseCodeowners(Array.from({ length: 2000 }, (_, i) => `/services/svc${i}/ @acme/team${i % 50}`).join('\n'));
    const budget = newCodeownersBudget();
    for (let i = 0; i < 3000; i++) expect(owners.ownersOf(`packages/pkg${i}/src/file${i}.ts`, budget)).toEqual([]);
    expect(owners.ownersOf('services/svc1999/a.ts', budget)).toEqual(['@acme/team49']);
  });

  it('throws CodeownersBeyondReach past its budget: a crafted file of lines the matcher must run for, against deep paths', () => {
    const owners = parseCodeowners(Array.from({ length: 100_000 }, (_, i) => `*/**/x*${i % 10}*/ @u${i % 10}`).join('\n'));
    const budget = newCodeownersBudget();
    const deep = (i: number) => `${'x/'.repeat(50)}file${i}.ts`;
    expect(() => {
      for (let i = 0; i < 100; i++) owners.ownersOf(deep(i), budget);
    }).toThrow(CodeownersBeyondReach);
  });
});
