import { toolAction, MAX_PATHS_CHARS } from '../../core/hooks/tool-action.js';
import { firstMatchingRule, type ToolRule } from '../../core/policies/tool-rules.js';

const ROOT = '/work/acme-shop';
const rules: ToolRule[] = [
  { match: { host: '*.internal.example.com' }, verdict: 'deny' },
  { match: { command: 'git push --force*' }, verdict: 'deny' },
  { match: { write: '.github/workflows/**' }, verdict: 'deny' },
];
const verdict = (tool: string, input: Record<string, unknown>) =>
  firstMatchingRule(rules, toolAction(tool, input, ROOT))?.rule.verdict ?? 'none';

describe('the hosts a fetch reaches (docs/agent-hooks.md, "Tools and capabilities")', () => {
  it.each([
    ['WebFetch', { url: 'https://a.internal.example.com./x' }],
    ['web_fetch', { prompt: 'summarize HTTPS://a.internal.example.com/secret' }],
    ['web_fetch', { url: 'https://ok.example.org/', prompt: 'summarize https://a.internal.example.com/secret' }],
  ])('%s %j reaches the internal host', (tool, input) => {
    expect(verdict(tool, input)).toBe('deny');
  });

  it('refuses a url that is no string', () => {
    expect(toolAction('WebFetch', { url: ['https://a.internal.example.com/'] }, ROOT).malformed).toBe(
      "WebFetch's the url must be a string",
    );
  });
});

describe("Copilot CLI's write_bash and apply_patch", () => {
  it('reads what write_bash types into a shell as a command line', () => {
    expect(verdict('write_bash', { shellId: '1', input: 'git push --force\n' })).toBe('deny');
    expect(toolAction('write_bash', { shellId: '1', input: 'ls\n' }, ROOT).capabilities).toEqual(['shell:exec']);
  });

  it('reads the files a patch adds, updates, deletes or moves to as writes', () => {
    const patch = ['*** Begin Patch', '*** Add File: .github/workflows/a.yml', '+on: push', '*** End Patch'].join('\n');
    expect(verdict('apply_patch', { input: patch })).toBe('deny');
    const diff = ['--- a/src/x.ts', '+++ b/src/y.ts', '@@ -1 +1 @@'].join('\n');
    expect(toolAction('apply_patch', { input: diff }, ROOT).capabilities).toEqual(['fs:write:src/x.ts', 'fs:write:src/y.ts']);
    expect(toolAction('apply_patch', { input: 'nothing' }, ROOT).malformed).toBe('apply_patch names no file');
  });
});

describe("files a PowerShell line or sort -o reads or writes (Copilot CLI's powershell tool)", () => {
  const fileRules: ToolRule[] = [
    { match: { read: '.env*' }, verdict: 'deny' },
    { match: { write: '.github/workflows/**' }, verdict: 'deny' },
  ];
  it.each([
    ['powershell', 'Get-Content .env'],
    ['powershell', 'gc -Path .env | Select-Object -First 1'],
    ['powershell', 'type .env.local'],
    ['powershell', 'Set-Content -Path .github/workflows/a.yml -Value x'],
    ['powershell', 'Out-File -FilePath .github/workflows/a.yml'],
    ['powershell', 'Copy-Item evil.yml .github/workflows/'],
    ['powershell', 'Remove-Item -Recurse .github'],
    ['Bash', 'sort -o .github/workflows/a.yml x'],
    ['Bash', 'sort --output=.github/workflows/a.yml x'],
  ])('%s %j is refused', (tool, command) => {
    expect(firstMatchingRule(fileRules, toolAction(tool, { command }, ROOT))?.rule.verdict).toBe('deny');
  });
});

describe('paths read within bounds (docs/agent-hooks.md, "Shell commands and files")', () => {
  it('refuses a working directory or a shell directory longer than Linux opens, before reading a path', () => {
    expect(toolAction('Read', { file_path: 'a' }, `/${'a/'.repeat(3000)}`).malformed).toBe(
      'the working directory (cwd) is longer than 4096 characters',
    );
    expect(toolAction('run_shell_command', { command: 'cat x', dir_path: 'a/'.repeat(100_000) }, ROOT).malformed).toBe(
      "run_shell_command's directory is longer than 4096 characters",
    );
  });

  it("refuses a line whose cd makes its paths longer than Linux opens, and one nesting more than three shells' scripts", () => {
    // A cd of 40,000 `a/` before 4,000 file names held the server 17 s, the directory joined to each name and read.
    const far = toolAction('Bash', { command: `cd ${'a/'.repeat(40_000)}; cat${' x'.repeat(4000)}` }, ROOT);
    expect(far.malformed).toBe(
      "Bash's command line names a path longer than 4096 characters (Linux opens none), or more paths than shipgate reads: write such content with a file tool",
    );
    const deep = toolAction('Bash', { command: `sh -c "sh -c 'sh -c \\"sh -c \\\\"git push\\\\"\\"'"` }, ROOT);
    expect(deep.malformed).toMatch(/^Bash's command line nests more than 3 shell scripts/);
  });

  it(`refuses a call naming more than ${MAX_PATHS_CHARS / 1024} KiB of paths`, () => {
    const action = toolAction('run_shell_command', { command: `cat${' x'.repeat(4000)}`, dir_path: 'a/'.repeat(2000) }, ROOT);
    expect(action.malformed).toBe('run_shell_command names more than 512 KiB of paths, which shipgate does not read');
    // Unbounded, the directory was joined to each operand and read: 28 s for a 204 KB hook input.
  });
});

describe('an edit reads the file it changes (core/hooks/tool-kinds.ts)', () => {
  const denyEnv: ToolRule[] = [{ match: { read: '.env*' }, verdict: 'deny' }];
  const refused = (tool: string, input: Record<string, unknown>, policy = denyEnv) =>
    firstMatchingRule(policy, toolAction(tool, input, ROOT))?.rule.verdict ?? 'none';

  it.each([
    ['Edit', { file_path: `${ROOT}/.env`, old_string: 'KEY=a', new_string: 'KEY=a' }],
    ['MultiEdit', { file_path: `${ROOT}/.env`, edits: [{ old_string: 'K', new_string: 'K' }] }],
    ['edit', { path: `${ROOT}/config/.env.local`, old_str: 'K', new_str: 'K' }],
    ['replace', { file_path: `${ROOT}/.env`, old_string: 'K', new_string: 'K' }],
    ['str_replace_editor', { command: 'str_replace', path: `${ROOT}/.env`, old_str: 'K', new_str: 'K' }],
    ['str_replace_editor', { command: 'view', path: `${ROOT}/.env` }],
  ])('%s %j is refused by a rule on reading it', (tool, input) => {
    expect(refused(tool, input)).toBe('deny');
  });

  it('writes a file whole without reading it, and reads a viewed one under its read capability', () => {
    expect(refused('Write', { file_path: `${ROOT}/.env`, content: 'KEY=b' })).toBe('none');
    expect(refused('str_replace_editor', { command: 'create', path: `${ROOT}/.env`, file_text: 'x' })).toBe('none');
    expect(toolAction('str_replace_editor', { command: 'view', path: `${ROOT}/.env` }, ROOT).capabilities).toEqual(['fs:read:.env']);
  });

  it('is still covered by an allow rule on writing it', () => {
    const policy: ToolRule[] = [{ match: { write: 'src/**' }, verdict: 'allow' }];
    expect(refused('Edit', { file_path: `${ROOT}/src/app.ts`, old_string: 'a', new_string: 'b' }, policy)).toBe('allow');
  });
});

describe("Gemini's read_many_files, which globs with dot: true", () => {
  const denyEnv: ToolRule[] = [{ match: { read: '.env*' }, verdict: 'deny' }];
  const refused = (input: Record<string, unknown>) =>
    firstMatchingRule(denyEnv, toolAction('read_many_files', input, ROOT))?.rule.verdict ?? 'none';

  it.each([
    { include: ['**/*'] },
    { paths: ['*'] },
    { include: ['config/*'] },
    { include: ['**/*.local'], useDefaultExcludes: false },
    { include: ['**/*.local'], file_filtering_options: { respect_git_ignore: false } },
  ])('%j names hidden files: it reads .env files', (input) => {
    expect(refused(input)).toBe('deny');
  });

  it.each([{ include: ['src/**/*.ts'] }, { include: ['docs/*.md'] }, { include: ['**/*.local'] }])(
    '%j, its filters on, is read as it is written',
    (input) => {
      expect(refused(input)).toBe('none');
    },
  );
});
