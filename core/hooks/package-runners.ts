import { readOption } from './read-option.js';

/**
 * Tools that run the rest of their words as a command, after a subcommand of their own or none:
 * package runners (`npx`, `uv run`, `poetry run`, `bundle exec`, `pnpm exec`, `conda run`, …),
 * `direnv exec DIR`, tracers (`strace`, `ltrace`), `dotenv --`. A security probe pushed with
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
}

const set = (...names: string[]): ReadonlySet<string> => new Set(names);
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
};

/** Past the options at `i` (those in `valued` with their values). */
function pastOptions(words: readonly string[], i: number, valued: ReadonlySet<string>): number {
  while (i < words.length && words[i].startsWith('-') && words[i] !== '--') i = readOption(words, i, valued).next;
  return i;
}

/** Where the command the runner `program` at `words[at]` runs starts (`uv run --with x git …`: at `git`), or null when it runs none. */
export function runnerCommandStart(program: string, words: readonly string[], at: number): number | null {
  if (!Object.hasOwn(RUNNERS, program)) return null;
  const { subcommands, valued, operands = 0 } = RUNNERS[program];
  let i = pastOptions(words, at + 1, valued);
  if (subcommands !== null) {
    if (!subcommands.includes(words[i])) return null;
    i = pastOptions(words, i + 1, valued);
  }
  if (words[i] === '--') i++;
  return i + operands < words.length ? i + operands : null;
}
