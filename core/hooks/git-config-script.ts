/**
 * Settings through which git runs a shell command of the setting's own: an alias starting with
 * `!`, a pager, an editor, an SSH command, an external diff, a credential helper starting with
 * `!`, an fsmonitor hook. A security probe ran `git -c alias.p='!git push --force' p` past
 * `deny git push --force*`: the push was in a `-c` value, which the command forms drop with
 * git's global options (docs/agent-hooks.md, "tool_rules").
 */
const RUNS_COMMAND =
  /^(?:alias\.[^=]+=!|credential(?:\.[^=]+)?\.helper=!|(?:core\.(?:sshcommand|pager|editor|fsmonitor)|sequence\.editor|diff\.external|pager\.[^=]+)=)(.*)$/is;

/** The commands git's `-c NAME=VALUE` options before its subcommand run, as one shell script (a line each), or null when none does. */
export function gitConfigScript(args: readonly string[]): string | null {
  const scripts: string[] = [];
  for (let i = 0; i < args.length && args[i].startsWith('-'); i++) {
    if (args[i] !== '-c') continue;
    const found = RUNS_COMMAND.exec(args[++i] ?? '');
    if (found && found[1] !== '') scripts.push(found[1]);
  }
  return scripts.length > 0 ? scripts.join('\n') : null;
}
