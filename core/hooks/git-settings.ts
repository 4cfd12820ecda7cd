/**
 * The settings a git command runs under or stores, as `NAME=VALUE` (docs/agent-hooks.md,
 * "tool_rules"): what a `git -c` gives, what the environment gives (`GIT_CONFIG_COUNT` with
 * `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, `GIT_CONFIG_PARAMETERS`, and the variables that stand
 * for a setting: `GIT_SSH_COMMAND`, `GIT_PAGER`, …), and what `git config NAME VALUE` stores for
 * the commands after it. A security probe forced a push with `GIT_CONFIG_KEY_0=remote.origin.push
 * GIT_CONFIG_VALUE_0=+HEAD:main git push`, and with `git config remote.origin.push +HEAD:main`
 * before a plain `git push`.
 */

/** Environment variables git reads as a setting. */
const SETTING_VARIABLES: Record<string, string> = {
  GIT_SSH_COMMAND: 'core.sshCommand',
  GIT_SSH: 'core.sshCommand',
  GIT_PAGER: 'core.pager',
  GIT_EDITOR: 'core.editor',
  GIT_SEQUENCE_EDITOR: 'sequence.editor',
  GIT_EXTERNAL_DIFF: 'diff.external',
  // A configuration file of the agent's choosing: its settings are not read (force-push-form.ts).
  GIT_CONFIG_GLOBAL: 'include.path',
  GIT_CONFIG_SYSTEM: 'include.path',
  GIT_CONFIG: 'include.path',
};

/** git's `--config-env=NAME=VARIABLE` (or as two words) as `-c NAME=$VARIABLE`: a value the line computes. */
export function configEnvOptions(args: string[]): string[] {
  if (!args.some((word) => word.startsWith('--config-env'))) return args;
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const given =
      args[i] === '--config-env' ? args[++i] : args[i].startsWith('--config-env=') ? args[i].slice('--config-env='.length) : null;
    const eq = given?.indexOf('=') ?? -1;
    if (given === null || given === undefined) out.push(args[i]);
    else out.push('-c', eq < 0 ? given : `${given.slice(0, eq)}=$${given.slice(eq + 1)}`);
  }
  return out;
}

/** `GIT_CONFIG_PARAMETERS`'s items: `'name=value'`, single-quoted as git writes them (a `'` as `'\''`), space-separated. */
function parameterItems(text: string): string[] {
  const items: string[] = [];
  for (const found of text.matchAll(/'((?:[^']|'\\'')*)'/g)) items.push(found[1].replaceAll("'\\''", "'"));
  return items;
}

/** The settings `VAR=value` assignments before a git command give it, as `git -c` options (`-c`, `NAME=VALUE`, …). */
export function gitEnvironmentOptions(assignments: readonly string[]): string[] {
  const env = new Map<string, string>();
  for (const assignment of assignments) {
    if (!assignment.startsWith('GIT_')) continue;
    const eq = assignment.indexOf('=');
    env.set(assignment.slice(0, eq), assignment.slice(eq + 1));
  }
  if (env.size === 0) return [];
  const settings: string[] = [];
  for (const [variable, name] of Object.entries(SETTING_VARIABLES)) if (env.has(variable)) settings.push(`${name}=${env.get(variable)}`);
  settings.push(...parameterItems(env.get('GIT_CONFIG_PARAMETERS') ?? ''));
  // Every numbered pair given, whatever GIT_CONFIG_COUNT says (it may be computed).
  for (const [variable, key] of env) {
    const n = /^GIT_CONFIG_KEY_(\d+)$/.exec(variable)?.[1];
    if (n !== undefined) settings.push(`${key}=${env.get(`GIT_CONFIG_VALUE_${n}`) ?? ''}`);
  }
  return settings.flatMap((setting) => ['-c', setting]);
}

/** `git config`'s options that take the next word (`--file F`, `--type T`). */
const CONFIG_VALUED = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);

/** The setting `git config [OPTIONS] [set|--add|--replace-all] NAME VALUE` stores, as `NAME=VALUE` (`run`: past git's global options), or null. */
export function storedGitSetting(run: readonly string[]): string | null {
  if (run[0] !== 'config') return null;
  const operands: string[] = [];
  for (let i = 1; i < run.length; i++) {
    if (run[i] === '--') {
      operands.push(...run.slice(i + 1));
      break;
    }
    if (!run[i].startsWith('-')) operands.push(run[i]);
    else if (CONFIG_VALUED.has(run[i])) i++;
  }
  const [name, value] = operands[0] === 'set' ? operands.slice(1) : operands;
  return name !== undefined && value !== undefined && !['get', 'unset', 'list', 'edit', 'rename-section', 'remove-section'].includes(name)
    ? `${name}=${value}`
    : null;
}
