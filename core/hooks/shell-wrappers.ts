import { gitConfigScript } from './git-config-script.js';
import { configEnvOptions, gitEnvironmentOptions } from './git-settings.js';
import { editorCommandLines } from './editor-commands.js';
import { handedScript, remoteShellLines } from './handed-scripts.js';
import { inlineProgramReach } from './inline-programs.js';
import { runnerCommandStart, runnerFiles } from './package-runners.js';
import { powershellScript } from './powershell-script.js';
import { COMPUTED_TEXT } from './printed-text.js';
import { readOption } from './read-option.js';

/**
 * The program a simple command runs behind its wrappers, and the commands a command runs in turn
 * (docs/agent-hooks.md, "tool_rules" and "Shell commands and files"): `sudo`, `env`, `nohup`,
 * `xargs`, `flock`, `runuser -u`, … run the rest of their words; `su -c`, `runuser -c`,
 * `script -c`, `flock FILE -c`, `watch` and `env -S` hand a string to a shell, read here as
 * `sh -c` would; `find -exec` runs the words after it. Defence in depth for the policy's rules,
 * NOT a shell parser (shell-words.ts).
 */

const opts = (...names: string[]): ReadonlySet<string> => new Set(names);

/** su's options that take a value; runuser (util-linux's su for root) takes su's and `-u USER`. */
const SU_VALUED = [
  '-c',
  '-g',
  '-G',
  '-s',
  '-w',
  '--command',
  '--session-command',
  '--group',
  '--supp-group',
  '--shell',
  '--whitelist-environment',
];
const SU_SCRIPT = opts('-c', '--command', '--session-command');
const RUNUSER_VALUED = opts(...SU_VALUED, '-u', '--user');

/** Wrappers that run the rest of their words as a command, with their options that take a value. */
const WRAPPERS: Record<string, ReadonlySet<string>> = {
  sudo: opts('-u', '-g', '-h', '-p', '-r', '-t', '-U', '-C', '-D', '-R', '-T', '--user', '--group', '--chdir', '--prompt'),
  doas: opts('-u', '-C'),
  env: opts('-u', '-C', '-S', '--unset', '--chdir', '--split-string'),
  nice: opts('-n', '--adjustment'),
  timeout: opts('-s', '-k', '--signal', '--kill-after'),
  stdbuf: opts('-i', '-o', '-e'),
  command: opts(),
  exec: opts('-a'),
  nohup: opts(),
  time: opts('-f', '-o', '--format', '--output'),
  builtin: opts(),
  setsid: opts(),
  chronic: opts(),
  busybox: opts(),
  ionice: opts('-c', '-n', '--class', '--classdata'),
  flock: opts('-w', '-E', '--timeout', '--conflict-exit-code'),
  runuser: RUNUSER_VALUED,
  watch: opts('-n', '-q', '--interval', '--equexit'),
  xargs: opts(
    '-a',
    '-d',
    '-E',
    '-I',
    '-L',
    '-n',
    '-P',
    '-s',
    '--arg-file',
    '--delimiter',
    '--max-lines',
    '--max-args',
    '--max-procs',
    '--max-chars',
    '--process-slot-var',
  ),
};

/** Commands that run a string with `$SHELL -c`, by the options that give it (anywhere among their words: getopt permutes). */
const SCRIPT_OPTIONS: Record<string, { valued: ReadonlySet<string>; script: ReadonlySet<string> }> = {
  su: { valued: opts(...SU_VALUED), script: SU_SCRIPT },
  // `runuser USER -c '…'` runs a script; without one, `runuser -u USER -- CMD` runs CMD itself (WRAPPERS).
  runuser: { valued: RUNUSER_VALUED, script: SU_SCRIPT },
  script: {
    valued: opts('-c', '-E', '-I', '-O', '-B', '-T', '-m', '--command', '--echo', '--log-in', '--log-out', '--log-io', '--log-timing'),
    script: opts('-c', '--command'),
  },
};

const baseName = (word: string) => word.slice(word.lastIndexOf('/') + 1).toLowerCase();
const sh = (script: string) => ({ program: 'sh', args: ['-c', script] });

/** The script a command runs through `SCRIPT_OPTIONS`, or null. */
function optionScript(args: readonly string[], spec: (typeof SCRIPT_OPTIONS)[string]): string | null {
  for (let i = 0; i < args.length;) {
    if (args[i] === '--') break;
    if (!args[i].startsWith('-') || args[i] === '-') {
      i++;
      continue;
    }
    const option = readOption(args, i, spec.valued);
    if (spec.script.has(option.name) && option.value !== undefined) return option.value;
    i = option.next;
  }
  return null;
}

/**
 * The program a simple command runs and its arguments: past `VAR=value` and the wrappers that
 * run a command (with their options), the program's name without its directory, lower-cased. A
 * wrapper that hands a string to a shell reads as `sh -c STRING` (shellScript then reads it).
 * `eval` reads as `sh -c` of its words; package runners run the command after them
 * (package-runners.ts). `fed`: `xargs` runs it with more arguments, read from its
 * input or from the files it names (`-a FILE`; core/hooks/computed-paths.ts).
 */
export function programOf(words: readonly string[]): ProgramRun {
  // A simple command's words are read by several modules (its forms, files, hosts, scripts): once each.
  let found = programs.get(words);
  if (found === undefined) {
    found = readProgram(words);
    programs.set(words, found);
  }
  return found;
}

/** The program a simple command runs, as programOf reads it; its arrays are not to be changed (they are shared). */
export type ProgramRun = {
  program: string;
  args: string[];
  fed?: string[];
  replace?: string;
  /** Paths the runners before it were handed (`dotenv -e .env --`, package-runners.ts's runnerFiles): they may read them. */
  handed?: string[];
};

const programs = new WeakMap<readonly string[], ProgramRun>();

/**
 * The arguments a program runs with, those `xargs` hands it included: the words of its input are
 * text the line computes (`$`), appended, or in place of its replacement string (`-I {}`), so
 * `echo push --force | xargs git` reads `git $` and `xargs -I{} sh -c {}` runs a computed script.
 */
export function argumentsRun(run: ProgramRun): readonly string[] {
  if (run.fed === undefined) return run.args;
  const { replace } = run;
  if (replace === undefined) return [...run.args, COMPUTED_TEXT];
  return replace === '' ? run.args : run.args.map((word) => word.split(replace).join(COMPUTED_TEXT));
}

function readProgram(words: readonly string[]): ProgramRun {
  let i = 0;
  let fed: string[] | undefined;
  let replace: string | undefined;
  const runnerPaths: string[] = [];
  const assigned: string[] = [];
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) assigned.push(words[i++]);
    const base = baseName(words[i] ?? '');
    const handed = handedScript(base, words.slice(i + 1));
    if (handed !== null) return sh(handed);
    if (Object.hasOwn(SCRIPT_OPTIONS, base)) {
      const script = optionScript(words.slice(i + 1), SCRIPT_OPTIONS[base]);
      if (script !== null) return sh(script);
      if (!Object.hasOwn(WRAPPERS, base)) break;
    }
    const valued = Object.hasOwn(WRAPPERS, base) ? WRAPPERS[base] : null;
    // PowerShell's `iex` and `Invoke-Expression [-Command]` run their string as eval does.
    if (base === 'eval') return sh(words.slice(i + 1).join(' '));
    if (base === 'iex' || base === 'invoke-expression')
      return sh(
        words
          .slice(i + 1)
          .filter((w) => !/^-c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?$/i.test(w))
          .join(' '),
      );
    const runs = valued ? null : runnerCommandStart(base, words, i);
    if (runs !== null) {
      runnerPaths.push(...runnerFiles(base, words.slice(i + 1, runs)));
      i = runs;
      continue;
    }
    if (!valued) break;
    if (base === 'xargs') fed ??= [];
    i++;
    let split: string | undefined;
    let exec = false;
    while (i < words.length && words[i].startsWith('-') && words[i] !== '--') {
      const option = readOption(words, i, valued);
      if (option.name === '-S' || option.name === '--split-string') split = option.value ?? '';
      if (base === 'xargs' && (option.name === '-a' || option.name === '--arg-file') && option.value !== undefined) fed?.push(option.value);
      // xargs's replacement string: `-I R`, `--replace[=R]`, `-i[R]` (`{}` unless given).
      if (base === 'xargs' && (option.name === '-I' || option.name === '--replace')) replace = option.value ?? '{}';
      else if (base === 'xargs' && /^-i/.test(words[i])) replace = words[i].slice(2) || '{}';
      exec ||= option.name === '--exec' || /^-[a-z]*x/.test(words[i]);
      i = option.next;
    }
    if (words[i] === '--') i++;
    // `timeout 5 git push`: its duration is no program; `flock FILE cmd`: nor its lock file.
    if (base === 'timeout' && /^\d/.test(words[i] ?? '')) i++;
    if (base === 'flock' && ++i < words.length && (words[i] === '-c' || words[i] === '--command')) return sh(words[i + 1] ?? '');
    if (split !== undefined && base === 'env') return sh([split, ...words.slice(i)].join(' '));
    // watch runs its words joined with `sh -c`, unless `-x`.
    if (base === 'watch' && !exec) return sh(words.slice(i).join(' '));
  }
  // Lower-cased: a case-insensitive filesystem (macOS's, Windows') runs `GIT` as git (core/policies/loose-spelling.ts).
  const named = baseName(words[i] ?? '');
  // hub is git with GitHub's commands added: `hub push --force` is git's push.
  const program = named === 'hub' ? 'git' : named;
  // `git-push` (git's own programs, in `git --exec-path`) runs as `git push`.
  const dashed = /^git-([a-z][a-z0-9-]*)$/.exec(program);
  const rest = program === 'git' ? configEnvOptions(words.slice(i + 1)) : words.slice(i + 1);
  const args = dashed ? [dashed[1], ...rest] : rest;
  // The settings the environment gives git, read as its `-c` options (git-settings.ts).
  const settings = program === 'git' || dashed ? gitEnvironmentOptions(assigned) : [];
  if (settings.length > 0) args.unshift(...settings);
  return {
    program: dashed ? 'git' : program,
    args,
    ...(fed && { fed }),
    ...(replace !== undefined && { replace }),
    ...(runnerPaths.length > 0 && { handed: runnerPaths }),
  };
}

/** git's global options that take the next word as their value (`--git-dir=x` takes none; `--exec-path` only with `=`). */
const GIT_VALUED = opts('-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--attr-source');

/** git's global options before its subcommand (`-C dir`, `--git-dir .git`, `--no-pager`, …), skipped: the subcommand and its arguments. */
export function gitSubcommand(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) i += GIT_VALUED.has(args[i]) ? 2 : 1;
  return args.slice(i);
}

/** Shells whose `-c` argument is a script of commands. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
/** Shell options that take the next word (`-o pipefail`, `--rcfile FILE`). */
const SHELL_VALUED = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

/**
 * The script a shell runs with `-c`, if the words run one (`bash -lc 'x'`, `sh -c -- 'x'`,
 * `bash -c -x 'x'`, `fish --command='x'`): with `-c` among its options, the first word after them;
 * PowerShell's `-Command` and `-EncodedCommand` (powershell-script.ts); the commands git's `-c`
 * settings run (git-config-script.ts); the shell lines an interpreter's inline program hands over
 * (inline-programs.ts), and an editor's or expect's command-line commands (editor-commands.ts). `input` is what `<<<` or a here-document gives the command: a shell with
 * no `-c` and no script file (or `-s`, or `-`) runs it.
 */
export function shellScript(words: readonly string[], input?: string): string | null {
  const ran = programOf(words);
  const { program } = ran;
  const args = argumentsRun(ran);
  if (program === 'git') {
    const run = gitSubcommand(args);
    return gitConfigScript(args.slice(0, args.length - run.length), run);
  }
  const handed = inlineProgramReach(program, args, input).lines;
  if (handed.length > 0) return handed.join('\n');
  const commanded = [...editorCommandLines(program, args), ...remoteShellLines(program, args)];
  if (commanded.length > 0) return commanded.join('\n');
  // `source <(…)`: the shell runs what the process substitution prints (shell-words.ts gives it as the input).
  if ((program === 'source' || program === '.') && args.length === 0) return input ?? null;
  // at and batch run the script on their input later (`echo 'git push --force' | at now`), unless `-f FILE` names it.
  if ((program === 'at' || program === 'batch') && !args.some((word) => /^-[a-z]*f/i.test(word))) return input ?? null;
  if (!SHELLS.has(program)) return powershellScript(program, args);
  let command = false;
  let stdin = false;
  let i = 0;
  for (; i < args.length && /^[-+]./.test(args[i]) && args[i] !== '--'; i++) {
    if (args[i].startsWith('--command=')) return args[i].slice('--command='.length);
    if (SHELL_VALUED.has(args[i])) i++;
    else command ||= args[i] === '--command' || (!args[i].startsWith('--') && args[i].slice(1).includes('c'));
    stdin ||= /^-[a-z]*s/.test(args[i]);
  }
  stdin ||= args[i] === '-' || i >= args.length;
  if (args[i] === '--' || args[i] === '-') i++;
  if (command) return i < args.length ? args[i] : null;
  return stdin && input !== undefined ? input : null;
}
