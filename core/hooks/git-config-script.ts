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
  const scripts = [...settings, ...(stored === null ? [] : [stored])]
    .map((setting) => RUNS_COMMAND.exec(setting)?.[1] ?? '')
    .filter((script) => script !== '');
  // An alias of git's own commands: `-c alias.p='push --force' p` runs `git push --force`, and one stored runs it later.
  for (const setting of settings) {
    const alias = GIT_ALIAS.exec(setting);
    if (alias && alias[1].toLowerCase() === run[0]?.toLowerCase()) scripts.push(`git ${alias[2]} ${run.slice(1).join(' ')}`);
  }
  const storedAlias = stored === null ? null : GIT_ALIAS.exec(stored);
  if (storedAlias) scripts.push(`git ${storedAlias[2]}`);
  return scripts.length > 0 ? scripts.join('\n') : null;
}

/** `alias.NAME=VALUE` where VALUE is git's own command (one starting with `!` is a shell's: RUNS_COMMAND). */
const GIT_ALIAS = /^alias\.([^=]+)=(?!!)(.+)$/is;
