/**
 * A PowerShell line (Copilot CLI's `powershell` tool) made readable by the shell reader
 * (shell-words.ts, which reads bash): a script block's braces separate commands as they run
 * (`Invoke-Command -ScriptBlock { git push --force }`, `. { … }`, `ForEach-Object { cat .env }`;
 * `${…}` and a hashtable's `@{` stay), and a .NET method's parenthesis opens its arguments
 * (`[IO.File]::ReadAllText(".env")` reads as the words `[IO.File]::ReadAllText .env`, a call
 * shell-file-access.ts reads for paths); an assignment's target and a variable starting a
 * statement are no commands, as they are in PowerShell. A security probe read `.env` and pushed
 * with `--force` through script blocks and .NET methods.
 */
export function powershellLine(line: string): string {
  return (
    line
      // A backslash is a path's separator, no escape (`.\.env`, `config\.env.local`); a backtick
      // escapes the next character, or continues the line, and substitutes nothing.
      .replace(/\\/g, '/')
      .replace(/`(\r?\n|.)/gs, (_, next: string) => (next.trim() === '' ? ' ' : next))
      .replace(/(\]::[A-Za-z_]\w*)\(/g, '$1 ')
      .replace(/(?<![$@])[{}]/g, ';')
      // An assignment runs its right side: `$x = Get-Content .env` reads `.env`; its target goes.
      .replace(STATEMENT_ASSIGNS, '$1;')
      // A statement that starts with a variable is an expression: PowerShell runs no command it names (`& $cmd` does).
      .replace(STATEMENT_VARIABLE, '$1: ')
  );
}

const STATEMENT_ASSIGNS = /(^|[;\n|&(])[ \t]*(?:\[[\w.]+\])?\$[\w:]+(?:\[[^\]\n;|&(]*\])?[ \t]*[-+*/%]?=(?!=)/g;
const STATEMENT_VARIABLE = /(^|[;\n(])[ \t]*(?=\$[\w{:])/g;

/** Whether a program is a .NET static method (`[System.IO.File]::WriteAllText`), as programOf names it. */
export const isDotNetMethod = (program: string): boolean => /^\[[^\]]+\]::\w+$/.test(program);
