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
    expect(rule('Bash', 'pwsh build.ps1 .env')).toBeNull();
    expect(rule('Bash', `pwsh -NoProfile -enc ${encoded('Write-Output hello')}`)).toBeNull();
  });
});
