// `npm run jest` (README, "Running the tests"): the suite in two phases. First every file but the
// timing files, in parallel; then the timing files (`*.timing.test.ts`: a server must stay
// responsive within a bound while hostile input is processed), one at a time, so what they
// measure is the server and not a Chromium or a migration in the next jest worker. Arguments are
// jest's: paths and patterns choose the files (of both phases), options go to both phases.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TIMING = /\.timing\.test\.ts$/;
const jestBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/jest/bin/jest.js');
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() };
const args = process.argv.slice(2);
/** Options whose value is the next argument, so that argument is not a path. */
const TAKES_VALUE = new Set(['-t', '--testNamePattern', '--seed', '--maxWorkers', '-w', '--shard', '--reporters', '--config', '-c']);
const options = args.filter((arg, i) => arg.startsWith('-') || TAKES_VALUE.has(args[i - 1]));

function jest(extra, stdio = 'inherit') {
  const result = spawnSync(process.execPath, [jestBin, ...extra], { stdio, env, encoding: 'utf8' });
  return { code: result.signal ? 1 : (result.status ?? 1), stdout: result.stdout };
}

if (options.includes('--listTests') || options.includes('--help') || options.includes('--version')) process.exit(jest(args).code);
const listed = jest(['--listTests', '--json', ...args], ['ignore', 'pipe', 'inherit']);
if (listed.code !== 0) process.exit(listed.code);
const files = JSON.parse(listed.stdout);
const timing = files.filter((file) => TIMING.test(file));
const rest = files.filter((file) => !TIMING.test(file));
if (files.length === 0) process.exit(jest(args).code); // jest's own "No tests found"
// The first phase is chosen by the same arguments with the timing files left out, so jest's summary names no list of paths.
const parallel = rest.length > 0 ? jest([...args, '--testPathIgnorePatterns', TIMING.source]).code : 0;
const oneAtATime = timing.length > 0 ? jest([...options, '--runInBand', '--runTestsByPath', ...timing]).code : 0;
process.exit(parallel || oneAtATime);
