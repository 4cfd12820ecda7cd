import { readOption } from './read-option.js';
import { handedPaths } from './handed-paths.js';

/**
 * Tools that run the rest of their words as a command, after a subcommand of their own or none:
 * package runners (`npx`, `uv run`, `poetry run`, `bundle exec`, `pnpm exec`, `conda run`, …),
 * `direnv exec DIR`, tracers (`strace`, `ltrace`, `gdb --args`, `valgrind`), `dotenv --`, launchers
 * (`pkexec`, `chroot DIR`, `unshare`, `systemd-run`, `chrt PRIO`, `taskset MASK`, `screen -dm`, …)
 * and containers (`docker exec C`, `docker run IMAGE`, `kubectl exec POD --`). A security probe pushed with
 * `uv run git push --force` and `poetry run git push --force` past `git push --force*`, whose
 * forms held the runner's words first (docs/agent-hooks.md, "tool_rules").
 */
interface Runner {
  /** The subcommand that runs a command (`run`, `exec`), or null when the next word is the command. */
  subcommands: readonly string[] | null;
  /** Options taking a value, before or after the subcommand. */
  valued: ReadonlySet<string>;
  /** Words after the options that are no command (`direnv exec DIR`). */
  operands?: number;
  /** The word after which the command starts, whatever comes before it (`gdb -batch -ex run --args CMD`). */
  after?: string;
}

const set = (...names: string[]): ReadonlySet<string> => new Set(names);
const CONTAINER_VALUED = set(
  ...['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys', '-v', '--volume', '--mount', '--name'],
  ...['-p', '--publish', '--network', '--entrypoint', '-l', '--label', '--platform', '-m', '--memory', '--cpus', '-h', '--hostname'],
);
const CONDA: Runner = { subcommands: ['run'], valued: set('-n', '--name', '-p', '--prefix', '--cwd') };
const RUNNERS: Record<string, Runner> = {
  npx: { subcommands: null, valued: set('-p', '--package') },
  bunx: { subcommands: null, valued: set('-p', '--package') },
  pnpx: { subcommands: null, valued: set() },
  uvx: { subcommands: null, valued: set('--from', '--with', '-p', '--python') },
  npm: { subcommands: ['exec', 'x'], valued: set('-p', '--package', '-w', '--workspace', '--prefix') },
  uv: {
    subcommands: ['run'],
    valued: set(
      '--with',
      '-p',
      '--python',
      '--project',
      '--directory',
      '--env-file',
      '--extra',
      '--group',
      '--package',
      '--from',
      '--index',
    ),
  },
  poetry: { subcommands: ['run'], valued: set('-C', '--directory', '-P', '--project') },
  pipenv: { subcommands: ['run'], valued: set() },
  pdm: { subcommands: ['run'], valued: set('-p', '--project') },
  hatch: { subcommands: ['run'], valued: set('-e', '--env') },
  bundle: { subcommands: ['exec'], valued: set('--gemfile') },
  pnpm: { subcommands: ['exec', 'dlx'], valued: set('-C', '--dir', '--filter', '-F') },
  yarn: { subcommands: ['exec', 'dlx'], valued: set('-p', '--package', '--cwd') },
  conda: CONDA,
  mamba: CONDA,
  micromamba: CONDA,
  direnv: { subcommands: ['exec'], valued: set(), operands: 1 },
  strace: { subcommands: null, valued: set('-o', '-e', '-p', '-s', '-u', '-E', '-a', '-P', '-I', '-b', '-O', '-S', '-X', '-U') },
  ltrace: { subcommands: null, valued: set('-o', '-e', '-p', '-s', '-u', '-a', '-n', '-l', '-L', '-x', '-F') },
  dotenv: { subcommands: null, valued: set('-e', '-v', '-c') },
  // Launchers that change how, where or as whom the command runs.
  pkexec: { subcommands: null, valued: set('--user') },
  chroot: { subcommands: null, valued: set('--userspec', '--groups'), operands: 1 },
  unshare: {
    subcommands: null,
    valued: set('-S', '-G', '-R', '-w', '--setuid', '--setgid', '--root', '--wd', '--map-user', '--map-group'),
  },
  firejail: { subcommands: null, valued: set() },
  'systemd-run': {
    subcommands: null,
    valued: set('-u', '--unit', '-p', '--property', '-E', '--setenv', '--uid', '--gid', '-M', '--machine', '-H', '--host'),
  },
  chrt: { subcommands: null, valued: set(), operands: 1 },
  taskset: { subcommands: null, valued: set(), operands: 1 },
  faketime: { subcommands: null, valued: set(), operands: 1 },
  caffeinate: { subcommands: null, valued: set('-t', '-w') },
  proxychains: { subcommands: null, valued: set('-f') },
  proxychains4: { subcommands: null, valued: set('-f') },
  torsocks: { subcommands: null, valued: set('-u', '-p', '-a', '-P') },
  valgrind: { subcommands: null, valued: set() },
  catchsegv: { subcommands: null, valued: set() },
  gdb: { subcommands: null, valued: set(), after: '--args' },
  lldb: { subcommands: null, valued: set(), after: '--' },
  screen: { subcommands: null, valued: set('-S', '-c', '-p', '-t', '-h', '-e', '-T', '-Logfile') },
  // A container's command (`docker exec CONTAINER cmd`, `docker run IMAGE cmd`, `kubectl exec POD -- cmd`).
  docker: { subcommands: ['exec', 'run'], valued: CONTAINER_VALUED, operands: 1 },
  podman: { subcommands: ['exec', 'run'], valued: CONTAINER_VALUED, operands: 1 },
  kubectl: { subcommands: ['exec'], valued: set('-c', '--container', '-n', '--namespace', '--context', '--kubeconfig'), operands: 1 },
};

/** Past the options at `i` (those in `valued` with their values). */
function pastOptions(words: readonly string[], i: number, valued: ReadonlySet<string>): number {
  while (i < words.length && words[i].startsWith('-') && words[i] !== '--') i = readOption(words, i, valued).next;
  return i;
}

/** Where the command the runner `program` at `words[at]` runs starts (`uv run --with x git …`: at `git`), or null when it runs none. */
export function runnerCommandStart(program: string, words: readonly string[], at: number): number | null {
  if (!Object.hasOwn(RUNNERS, program)) return null;
  const { subcommands, valued, operands = 0, after } = RUNNERS[program];
  if (after !== undefined) {
    const marked = words.indexOf(after, at + 1);
    return marked >= 0 && marked + 1 < words.length ? marked + 1 : null;
  }
  let i = pastOptions(words, at + 1, valued);
  if (subcommands !== null) {
    if (!subcommands.includes(words[i])) return null;
    i = pastOptions(words, i + 1, valued);
  }
  if (words[i] === '--') i++;
  // Options may follow an operand (`kubectl exec POD -c C -- cmd`), and a `--` end them.
  for (let n = 0; n < operands; n++) i = pastOptions(words, i + 1, valued);
  if (operands > 0 && words[i] === '--') i++;
  return i < words.length ? i : null;
}

/**
 * The paths a runner's own words (its options and operands before the command) hand it, which it
 * may read (shell-file-access.ts's `handed`): `dotenv -e .env.prod --`, `chroot /srv/root`, and the
 * `.env` dotenv loads when no `-e` names one. A security probe printed `.env` past `read: .env*`
 * with `dotenv -e .env -- env`.
 */
export function runnerFiles(program: string, own: readonly string[]): string[] {
  const files = handedPaths(own);
  if (program === 'dotenv' && !own.some((word) => word === '-e' || word.startsWith('-e'))) files.push('.env');
  return files;
}
