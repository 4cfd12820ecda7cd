import { ValidationError, type ValidationIssue } from '../errors.js';
import type { Gate } from '../release/gate.js';
import { readGateFile } from '../release/read-gate-file.js';
import type { GateStore } from '../release/release-store.js';
import { GATE_FILE_PATH, gateOfFileContent, saveFileGate } from '../release/set-gate-from-file.js';
import type { GateFileReader } from './gate-file-reader.js';

/** One thing wrong with `.github/shipgate.yml`, where it is. */
export interface GateFileProblem {
  file: string;
  line: number | null;
  message: string;
}

/** A gate file read: the gate it holds, or what is wrong with it. Plain data, so it crosses from a worker thread. */
export type GateFileReading = { gate: Gate } | { problems: GateFileProblem[] };

/**
 * The most problems reported for one gate file (docs/operations.md, "Regular expressions"): the first ones
 * are what its author fixes next, and placing each in the file is work, so the work stays
 * bounded however many problems a file holds.
 */
export const GATE_FILE_MAX_PROBLEMS = 20;

/** At most GATE_FILE_MAX_PROBLEMS: the first ones, the last saying how many more there are. */
function firstProblems<T>(all: T[], toProblem: (item: T) => GateFileProblem): GateFileProblem[] {
  if (all.length <= GATE_FILE_MAX_PROBLEMS) return all.map(toProblem);
  const shown = all.slice(0, GATE_FILE_MAX_PROBLEMS - 1).map(toProblem);
  const message = `${all.length - shown.length} more problems not listed (at most ${GATE_FILE_MAX_PROBLEMS} are reported): fix these first.`;
  return [...shown, { file: GATE_FILE_PATH, line: null, message }];
}

/** A validation issue as a problem of the file: its field, at the line `lineOf` gives the field's path. */
function problemOf(issue: ValidationIssue, lineOf: (path: (string | number)[]) => number | null): GateFileProblem {
  const path = issue.loc[0] === GATE_FILE_PATH ? issue.loc.slice(1) : issue.loc;
  const field = path.length > 0 ? `${path.join('.')}: ` : '';
  return { file: GATE_FILE_PATH, line: lineOf(path), message: `${field}${issue.msg}` };
}

/**
 * Reads the text of `.github/shipgate.yml`: the gate it holds, or what is wrong with it, a file
 * too big to read, its YAML errors or the fields the gate's schema refuses, each at its line. The
 * file is parsed once (readGateFile), and at most GATE_FILE_MAX_PROBLEMS are placed and listed
 * (docs/operations.md, "Regular expressions").
 */
export function readGateFileText(text: string): GateFileReading {
  const file = readGateFile(text);
  if (file.kind === 'too_big') return { problems: [{ file: GATE_FILE_PATH, line: null, message: file.message }] };
  if (file.kind === 'not_yaml') return { problems: firstProblems(file.errors, (e) => ({ file: GATE_FILE_PATH, ...e })) };
  const read = gateOfFileContent(file.content);
  if ('gate' in read) return read;
  return { problems: firstProblems(read.issues, (issue) => problemOf(issue, file.lineOf)) };
}

/**
 * Sets the repository's gate from the text of its `.github/shipgate.yml`, read by `reader`, or
 * says what is wrong with the file (nothing: an empty list).
 */
export async function applyGateFile(store: GateStore, reader: GateFileReader, repoRoot: string, text: string): Promise<GateFileProblem[]> {
  const reading = await reader.read(text);
  if ('problems' in reading) return reading.problems;
  try {
    await saveFileGate(store, repoRoot, reading.gate);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.issues.map((issue) => problemOf(issue, () => null));
  }
}

export function formatGateFileProblem(problem: GateFileProblem): string {
  return `${problem.file}${problem.line === null ? '' : `:${problem.line}`}: ${problem.message}`;
}
