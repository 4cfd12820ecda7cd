import { gitSubcommand, programOf, ShellLineTooLong, simpleCommands } from './shell-words.js';

/**
 * Whether a shell command line runs `git push` in one of its simple commands (docs/agent-hooks.md,
 * "Governed pushes"): `git [global options] push ...`, behind any `VAR=value` and wrappers
 * (`sudo`, `env`, `command`, `exec`, …), quoted or not, in a shell's `-c` script too
 * (shell-words.ts). Like the shell's files, what a script or an alias runs is not seen.
 */
export function runsGitPush(command: string): boolean {
  try {
    return simpleCommands(command).some(({ words }) => {
      const { program, args } = programOf(words);
      return program === 'git' && gitSubcommand(args)[0] === 'push';
    });
  } catch (error) {
    // A line longer than shipgate reads was refused, never run: it pushed nothing.
    if (error instanceof ShellLineTooLong) return false;
    throw error;
  }
}
