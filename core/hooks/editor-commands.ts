/** vim and the programs that are vim: each takes Ex commands on its command line. */
const VIM_LIKE = new Set(['vi', 'vim', 'nvim', 'ex', 'view', 'gvim', 'vimdiff', 'nvi', 'elvis']);
const EMACS = new Set(['emacs', 'emacsclient']);
/** Emacs Lisp functions whose first argument, a string, is a shell line. */
const ELISP_SHELL = /\b(?:async-shell-command|shell-command-to-string|shell-command|call-process-shell-command)\s+"/g;
/** Vim script functions whose first argument, a string, is a shell line. */
const VIM_SHELL = /\b(?:systemlist|system)\(\s*['"]/g;

/** A string literal opening at `open` (its quote): its text up to the closing quote, a backslash taking the character after it. */
function literalFrom(text: string, open: number): string {
  const quote = text[open];
  let value = '';
  for (let i = open + 1; i < text.length && text[i] !== quote; i++) value += text[i] === '\\' && i + 1 < text.length ? text[++i] : text[i];
  return value;
}

/** The shell lines the string literals after each `pattern` match hold (`system("…")`, `(shell-command "…")`). */
function calledLines(code: string, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(pattern)) found.push(literalFrom(code, match.index + match[0].length - 1));
  return found;
}

/** vim's command-line Ex commands: `-c CMD` (in a cluster too: `-sc CMD`), `--cmd CMD`, `+CMD`. Its options are words, not getopt's clusters (`-es` is silent Ex mode). */
function vimCommands(args: readonly string[]): string[] {
  const commands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('+') && args[i].length > 1) commands.push(args[i].slice(1));
    else if ((args[i] === '--cmd' || /^-[a-zA-Z]*c$/.test(args[i])) && i + 1 < args.length) commands.push(args[++i]);
  }
  return commands;
}

/** An Ex command's shell line: what follows its `!` (`:!git push`, `:r !cat .env`, `:w !sh`, `:silent !…`), and what `system()` is given. */
const exShellLines = (command: string): string[] => [
  ...(command.includes('!') ? [command.slice(command.indexOf('!') + 1)] : []),
  ...calledLines(command, VIM_SHELL),
];

/** An expect script's commands that run a program: `spawn CMD…` and Tcl's `exec CMD…`, each up to its line's end, `;` or `]`. */
function expectLines(script: string): string[] {
  return script.split(/[\n;[\]]/).flatMap((statement) => {
    const words = statement.trim().split(/\s+/);
    if (words[0] !== 'spawn' && words[0] !== 'exec') return [];
    const rest = words
      .slice(1)
      .filter((word) => word !== '-noecho' && word !== '-ignore' && !/^-(?:open|leaveopen|console|nottycopy|nottyinit|pty)$/.test(word));
    return rest.length > 0 ? [rest.join(' ')] : [];
  });
}

/**
 * The shell lines an editor's or expect's command-line commands run (docs/agent-hooks.md, "Shell
 * commands and files"), or none: vim's `-c '!git push --force'`, `+'r !cat .env'`, `--cmd
 * 'call system("…")'`; emacs's `--eval '(shell-command "…")'`; expect's `-c 'spawn git push
 * --force'`. A security probe ran `git push --force` past `git push --force*` behind each.
 */
export function editorCommandLines(program: string, args: readonly string[]): string[] {
  if (VIM_LIKE.has(program)) return vimCommands(args).flatMap(exShellLines);
  if (EMACS.has(program)) {
    const evals = args.flatMap((word, i) =>
      word === '--eval' || word === '-eval'
        ? args[i + 1] !== undefined
          ? [args[i + 1]]
          : []
        : word.startsWith('--eval=')
          ? [word.slice(7)]
          : [],
    );
    return evals.flatMap((code) => calledLines(code, ELISP_SHELL));
  }
  if (program === 'expect') {
    const scripts = args.flatMap((word, i) => (word === '-c' && args[i + 1] !== undefined ? [args[i + 1]] : []));
    return scripts.flatMap(expectLines);
  }
  return [];
}
