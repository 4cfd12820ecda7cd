// `npm run jest` (README, "Running the tests"): the suite in two phases. First every file but the
// timing files, in parallel; then the timing files (`*.timing.test.ts`: a server must stay
// responsive within a bound while hostile input is processed), one at a time, so what they
// measure is the server and not a Chromium or a migration in the next jest worker. Arguments go
// to both phases; with a test path or pattern among them, jest runs once, with just those.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TIMING = '\\.timing\\.test\\.ts$';
const jestBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/jest/bin/jest.js');
const args = process.argv.slice(2);
const OPTIONS_WITH_VALUE = new Set(['-t', '--testNamePattern', '--seed', '--maxWorkers', '-w', '--shard', '--reporters']);

function jest(extra) {
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() };
  const { status, signal } = spawnSync(process.execPath, [jestBin, ...extra], { stdio: 'inherit', env });
  return signal ? 1 : (status ?? 1);
}

const selectsFiles = args.some((arg, i) => !arg.startsWith('-') && !OPTIONS_WITH_VALUE.has(args[i - 1]));
if (selectsFiles) process.exit(jest(args));
const parallel = jest(['--testPathIgnorePatterns', TIMING, ...args]);
const timing = jest(['--runInBand', '--testPathPatterns', TIMING, ...args]);
process.exit(parallel || timing);
