import { toolAction } from '../../core/hooks/tool-action.js';
import { firstMatchingRule, type ToolRule } from '../../core/policies/tool-rules.js';

const ROOT = '/work/acme-shop';
const rules: ToolRule[] = [
  { match: { command: 'git push --force*' }, verdict: 'deny' },
  { match: { read: '.env*' }, verdict: 'deny' },
];
const rule = (tool: string, command: string) => firstMatchingRule(rules, toolAction(tool, { command }, ROOT))?.index ?? null;
/** PowerShell's -EncodedCommand: base64 of the script's UTF-16LE text. */
const encoded = (script: string) => Buffer.from(script, 'utf16le').toString('base64');

// pwsh -EncodedCommand hid a whole script from the rules (docs/agent-hooks.md, "Shell commands and files").
describe("PowerShell's -Command and -EncodedCommand run scripts of their own", () => {
  it.each([
    ['Bash', `pwsh -EncodedCommand ${encoded('git push --force origin main')}`, 0],
    ['Bash', `pwsh -NoProfile -enc ${encoded('git push --force')}`, 0],
    ['Bash', `powershell.exe -ExecutionPolicy Bypass -e ${encoded('Get-Content .env')}`, 1],
    ['powershell', `pwsh -ec ${encoded('type .env')}`, 1],
    ['powershell', `pwsh -EnCoDeD ${encoded('gc .env')}`, 1],
    ['Bash', `pwsh -NoLogo -Command git push --force`, 0],
    ['Bash', `pwsh -c "Get-Content .env"`, 1],
    ['Bash', `powershell -WindowStyle Hidden Get-Content .env`, 1],
  ])('%s %j is read', (tool, command, index) => {
    expect(rule(tool, command)).toBe(index);
  });

  it('reads -ExecutionPolicy as its own parameter, and a script file for pwsh as no command', () => {
    expect(rule('Bash', 'pwsh -ex Bypass -File build.ps1')).toBeNull();
    expect(rule('Bash', 'pwsh build.ps1 out.txt')).toBeNull();
    expect(rule('Bash', `pwsh -NoProfile -enc ${encoded('Write-Output hello')}`)).toBeNull();
  });
});

// Copilot CLI's powershell lines: a security probe pushed with --force and read .env through each (core/hooks/powershell-line.ts).
describe('a PowerShell line runs what its script blocks, strings and .NET calls hold', () => {
  it.each([
    ['iex "git push --force"', 0],
    ['Invoke-Expression -Command "git push --force"', 0],
    ['Start-Process git -ArgumentList "push","--force"', 0],
    ['Start-Process -FilePath git -ArgumentList "push --force" -Wait', 0],
    ['cmd /c git push --force', 0],
    ['cmd.exe /C "git push --force"', 0],
    ['. { git push --force }', 0],
    ['Invoke-Command -ScriptBlock { git push --force }', 0],
    ['$null = git push --force', 0],
    ['& $cmd push --force', 0],
    ['Get-ChildItem | ForEach-Object { Get-Content .env }', 1],
    ['$x = Get-Content .env', 1],
    ['[IO.File]::ReadAllText(".env")', 1],
    ['foreach ($f in $files) { Get-Content $f }', 1],
    ['Get-Content .\\.env', 1],
    ['gc config\\.env.local', 1],
    ['git push `\n  --force', 0],
  ])('%j', (command, index) => {
    expect(rule('powershell', command)).toBe(index);
  });

  it.each([
    '$h = @{a=1; b=2}',
    '$x = $y',
    '[int]$n = 5',
    '$env:GIT_TRACE = "1"',
    '$a[0] += 1',
    'if ($x -eq 1) { Write-Host ok }',
    'git status; $LASTEXITCODE',
  ])('%j: a variable starting a statement is no command', (command) => {
    expect(rule('powershell', command)).toBeNull();
  });

  it('writes where a .NET call or Start-Process says', () => {
    const workflows: ToolRule[] = [{ match: { write: '.github/workflows/**' }, verdict: 'ask' }];
    const writes = (command: string) => firstMatchingRule(workflows, toolAction('powershell', { command }, ROOT))?.index ?? null;
    expect(writes('[System.IO.File]::WriteAllText(".github/workflows/ci.yml", "x")')).toBe(0);
    expect(writes('Start-Process notepad -RedirectStandardOutput .github/workflows/ci.yml')).toBe(0);
    expect(writes('Set-Content .github\\workflows\\ci.yml x')).toBe(0);
  });
});
