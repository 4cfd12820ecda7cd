/**
 * Whether a shell command line runs `git push` in one of its simple commands (docs/agent-hooks.md,
 * "Governed pushes"): `git [global options] push ...`, after any `VAR=value`, `sudo`, `command`
 * or `exec`. Like the shell's files, what a script or an alias runs is not seen.
 */
export function runsGitPush(command: string): boolean {
  return command.split(/[;&|\n()]+/).some((part) => {
    const words = part.trim().split(/\s+/).filter(Boolean);
    let i = 0;
    while (i < words.length && (/^\w+=/.test(words[i]) || ['sudo', 'command', 'exec', 'env'].includes(words[i]))) i++;
    const program = words[i] ?? '';
    if (program.slice(program.lastIndexOf('/') + 1) !== 'git') return false;
    i++;
    // git's global options before the subcommand; -C and -c take a value.
    while (i < words.length && words[i].startsWith('-')) i += words[i] === '-C' || words[i] === '-c' ? 2 : 1;
    return words[i] === 'push';
  });
}
