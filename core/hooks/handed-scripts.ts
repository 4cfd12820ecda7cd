import { readOption } from './read-option.js';
import { VALUED } from './shell-programs.js';

const opts = (...names: string[]): ReadonlySet<string> => new Set(names);

/** ssh's options that take a value (shell-hosts.ts reads its host by them too). */
export const SSH_VALUED = opts(
  ...['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L'],
  ...['-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w'],
);

/** ssh's `-o` settings whose value is a command run here, by the local shell. */
const SSH_COMMAND_SETTING = /^(?:proxycommand|localcommand|knownhostscommand)(?:\s*=|\s)/i;

/**
 * The commands ssh's, scp's and sftp's options run here (`-o ProxyCommand=CMD`, `-o "LocalCommand
 * CMD"`, `-oKnownHostsCommand=CMD`; scp's and sftp's `-S PROGRAM`), and rsync's remote shell
 * (`-e CMD`, `--rsh=CMD`). A security probe ran `git push --force` past `git push --force*` as each.
 */
function optionCommands(args: readonly string[], valued: ReadonlySet<string>, runs: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length && args[i] !== '--';) {
    if (!args[i].startsWith('-') || args[i] === '-') {
      i++;
      continue;
    }
    const option = readOption(args, i, valued);
    const setting = option.name === '-o' && option.value !== undefined ? SSH_COMMAND_SETTING.exec(option.value) : null;
    if (setting) found.push(option.value!.slice(setting[0].length).trimStart());
    else if (runs.includes(option.name) && option.value !== undefined) found.push(option.value);
    i = option.next;
  }
  return found;
}

/**
 * The shell lines ssh, scp, sftp and rsync run besides what they copy or reach, read as commands of
 * their own while the program keeps its hosts and files (shell-wrappers.ts's shellScript): ssh's
 * remote command (`ssh HOST CMD…`, read as if it ran here) and the commands their options run.
 */
export function remoteShellLines(program: string, args: readonly string[]): string[] {
  if (program === 'ssh') {
    const [, ...command] = operandsFrom(args, 0, SSH_VALUED);
    return [...optionCommands(args, SSH_VALUED, []), ...(command.length > 0 ? [command.join(' ')] : [])];
  }
  // scp's and sftp's `-S PROGRAM` is the ssh they run.
  if (program === 'scp' || program === 'sftp') return optionCommands(args, VALUED.scp, ['-S']);
  if (program === 'rsync') return optionCommands(args, VALUED.rsync, ['-e', '--rsh']);
  return [];
}

/** tmux's commands that run a shell command (their last words), with their options that take a value. */
const TMUX_RUNS: Record<string, ReadonlySet<string>> = {
  'new-session': opts('-c', '-e', '-F', '-n', '-s', '-t', '-x', '-y', '-f'),
  'new-window': opts('-c', '-e', '-F', '-n', '-t'),
  'split-window': opts('-c', '-e', '-F', '-l', '-t'),
  'respawn-pane': opts('-c', '-e', '-t'),
  'respawn-window': opts('-c', '-e', '-t'),
  'run-shell': opts('-d', '-t', '-c'),
  'send-keys': opts('-N', '-t'),
};
const TMUX_ALIASES: Record<string, string> = {
  new: 'new-session',
  neww: 'new-window',
  splitw: 'split-window',
  respawnp: 'respawn-pane',
  respawnw: 'respawn-window',
  run: 'run-shell',
  send: 'send-keys',
};
/** Keys send-keys types that end a line rather than spell it. */
const ENTER_KEYS = new Set(['Enter', 'C-m', 'KPEnter', 'C-j']);

/** What follows `separator` in each word `pattern` holds (`alias p=VALUE`, `EXEC:VALUE`). */
const valuesOf = (words: readonly string[], pattern: RegExp, separator: string): string[] =>
  words.flatMap((word) => (pattern.test(word) ? [word.slice(word.indexOf(separator) + 1)] : []));

/** Lines of a script, or null for none. */
const lines = (values: readonly string[]): string | null => (values.length > 0 ? values.join('\n') : null);

/** The words from `i` past options (those in `valued` with their values). */
function operandsFrom(words: readonly string[], i: number, valued: ReadonlySet<string>): string[] {
  while (i < words.length && words[i].startsWith('-') && words[i] !== '--') i = readOption(words, i, valued).next;
  return words.slice(words[i] === '--' ? i + 1 : i);
}

/** tmux's shell command: of a command that runs one, or the line `send-keys` types; tmux's own `-c` runs one too. */
function tmuxScript(args: readonly string[]): string | null {
  const global = readOption(args, 0, opts('-c', '-f', '-L', '-S', '-T'));
  if (args[0] === '-c' && global.value !== undefined) return global.value;
  const [command, ...rest] = operandsFrom(args, 0, opts('-f', '-L', '-S', '-T'));
  const name = command !== undefined && Object.hasOwn(TMUX_ALIASES, command) ? TMUX_ALIASES[command] : command;
  if (name === undefined || !Object.hasOwn(TMUX_RUNS, name)) return null;
  const words = operandsFrom(rest, 0, TMUX_RUNS[name]);
  const typed = name === 'send-keys' ? words.filter((word) => !ENTER_KEYS.has(word)) : words;
  return typed.length > 0 ? typed.join(' ') : null;
}

/**
 * The shell line a program is handed as words of its own and runs (docs/agent-hooks.md, "Shell
 * commands and files"), or null: `sg GROUP [-c] CMD`,
 * tmux's `new-session`, `new-window`, `split-window`, `respawn-*`, `run-shell` and the keys
 * `send-keys` types, `parallel ::: CMD…` (each a line), an alias's value (`alias p='git push
 * --force'`) and an npm script stored (`npm pkg set scripts.x=…`), socat's `EXEC:CMD` and
 * `SYSTEM:CMD`, Windows' `cmd /c CMD`, PowerShell's `Start-Process FILE -ArgumentList A,B`. A
 * security probe ran `git push --force` past `git push --force*` behind each.
 */
export function handedScript(program: string, args: readonly string[]): string | null {
  if (program === 'sg') {
    const [, ...command] = args.filter((word) => word !== '-');
    return command.length === 0 ? null : command[0] === '-c' ? (command[1] ?? null) : command.join(' ');
  }
  if (program === 'tmux') return tmuxScript(args);
  // `npm pkg set scripts.x='git push --force'` stores what `npm run x` runs: storing it is read as running it.
  if (program === 'npm' && args[0] === 'pkg' && args[1] === 'set') return lines(valuesOf(args.slice(2), /^scripts\.[^=]+=/, '='));
  if (program === 'npm' && args[0] === 'set-script' && args[2] !== undefined) return args[2];
  // `alias p='git push --force'` defines what a later `p` runs: defining it is read as running it.
  if (program === 'alias') return lines(valuesOf(args, /^[^=\s-][^=\s]*=/, '='));
  // socat's `EXEC:CMD` and `SYSTEM:CMD` addresses run CMD (socat reads its options after a comma).
  if (program === 'socat') return lines(valuesOf(args, /^(?:exec|system):/i, ':').map((value) => value.split(',')[0]));
  // Windows' `cmd /c CMD` (`/k` too, any case) runs the rest as its line.
  if (program === 'cmd' || program === 'cmd.exe') {
    const at = args.findIndex((word) => /^\/[ck]$/i.test(word));
    return at >= 0 && at + 1 < args.length ? args.slice(at + 1).join(' ') : null;
  }
  if (program === 'start-process' || program === 'saps') return startProcessLine(args);
  if (program === 'parallel') {
    const marked = args.indexOf(':::');
    const before = marked < 0 ? [] : operandsFrom(args.slice(0, marked), 0, opts('-j', '--jobs', '-S', '--delay', '--timeout'));
    return marked >= 0 && before.length === 0 ? args.slice(marked + 1).join('\n') || null : null;
  }
  return null;
}

/** Start-Process's parameters that take a value, by their names' prefixes PowerShell takes (`-FilePath` as `-f`, `-ArgumentList` as `-a` or `-args`). */
const START_PROCESS_VALUED = ['filepath', 'argumentlist', 'args', 'workingdirectory', 'verb', 'windowstyle', 'credential'];
const START_PROCESS_REDIRECTS = ['redirectstandardoutput', 'redirectstandardinput', 'redirectstandarderror'];

/** `Start-Process FILE -ArgumentList A,B` (or positionally, `saps FILE A,B`): the line `FILE A B` it runs. */
function startProcessLine(args: readonly string[]): string | null {
  const given = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = /^-(\w+)$/.exec(args[i])?.[1].toLowerCase();
    const full = name === undefined ? undefined : [...START_PROCESS_VALUED, ...START_PROCESS_REDIRECTS].find((p) => p.startsWith(name));
    if (full !== undefined && i + 1 < args.length) given.set(full === 'args' ? 'argumentlist' : full, args[++i]);
    else if (name === undefined) positional.push(args[i]);
  }
  const file = given.get('filepath') ?? positional[0];
  const list = given.get('argumentlist') ?? positional[given.has('filepath') ? 0 : 1];
  if (file === undefined) return null;
  const redirects = START_PROCESS_REDIRECTS.flatMap((p) => (given.has(p) ? [`${p.endsWith('input') ? '<' : '>'} ${given.get(p)}`] : []));
  return [file, ...(list === undefined ? [] : list.split(',')), ...redirects].join(' ');
}
