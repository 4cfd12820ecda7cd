/** PowerShell's programs, as programOf names them (lower-cased, without their directory). */
const POWERSHELLS = new Set(['pwsh', 'pwsh.exe', 'powershell', 'powershell.exe']);
/** Parameters of PowerShell's command line that take the next word, by their full names. */
const VALUED = [
  'executionpolicy',
  'ep',
  'windowstyle',
  'outputformat',
  'inputformat',
  'configurationname',
  'workingdirectory',
  'wd',
  'version',
  'settingsfile',
  'psconsolefile',
  'custompipename',
];

/** Whether `word` names the parameter `name` as PowerShell reads it: case-insensitive, `-` or `/` first, any prefix of it. */
function names(word: string, name: string): boolean {
  if (!/^[-/]./.test(word)) return false;
  return name.startsWith(word.slice(1).toLowerCase());
}

/**
 * The script `pwsh -Command …` or `-EncodedCommand BASE64` runs (docs/agent-hooks.md, "Shell
 * commands and files"): the words after `-Command` joined as PowerShell joins them, or the
 * base64 of UTF-16LE text decoded as PowerShell decodes it, so `pwsh -enc …` hides nothing from
 * the rules (`-e`, `-ec` and every prefix name it; `-ex` is `-ExecutionPolicy`). Windows
 * PowerShell reads its first bare word as the command, pwsh as a script file: null then.
 */
export function powershellScript(program: string, args: readonly string[]): string | null {
  if (!POWERSHELLS.has(program)) return null;
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    const lower = word.toLowerCase();
    if (lower === '-e' || lower === '-ec' || (lower.length > 2 && names(word, 'encodedcommand'))) {
      const encoded = args[i + 1] ?? '';
      return /^[A-Za-z0-9+/=]*$/.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf16le') : encoded;
    }
    if (lower === '-c' || (names(word, 'command') && !names(word, 'configurationname'))) return args.slice(i + 1).join(' ');
    if (VALUED.some((name) => names(word, name))) i++;
    else if (!/^[-/]/.test(word)) return program.startsWith('powershell') ? args.slice(i).join(' ') : null;
  }
  return null;
}
