import { storedGitSetting } from './git-settings.js';

/**
 * Settings through which git runs a shell command of the setting's own: an alias starting with
 * `!`, a pager, an editor, an SSH command, an external diff, a credential helper starting with
 * `!`, an fsmonitor hook. A security probe ran `git -c alias.p='!git push --force' p` past
 * `deny git push --force*`: the push was in a `-c` value, which the command forms drop with
 * git's global options (docs/agent-hooks.md, "tool_rules").
 */
const RUNS_COMMAND =
  /^(?:alias\.[^=]+=!|credential(?:\.[^=]+)?\.helper=!|(?:core\.(?:sshcommand|pager|editor|fsmonitor)|sequence\.editor|diff\.external|pager\.[^=]+)=)(.*)$/is;

/**
 * The commands git's settings run, as one shell script (a line each), or null when none does: those
 * its `-c NAME=VALUE` options among `global` (its options before the subcommand) give, and the one
 * `git config NAME VALUE` stores (`run`: the subcommand and what follows), which the commands after
 * it run (git-settings.ts).
 */
export function gitConfigScript(global: readonly string[], run: readonly string[]): string | null {
  if (run[0] !== 'config' && !global.includes('-c')) return null;
  const settings = global.filter((_, i) => global[i - 1] === '-c');
  const stored = storedGitSetting(run);
  if (stored !== null) settings.push(stored);
  const scripts = settings.map((setting) => RUNS_COMMAND.exec(setting)?.[1] ?? '').filter((script) => script !== '');
  return scripts.length > 0 ? scripts.join('\n') : null;
}
