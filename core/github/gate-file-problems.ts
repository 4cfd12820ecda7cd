import { isNode, LineCounter, parseDocument } from 'yaml';
import type { ValidationIssue } from '../errors.js';
import { GATE_FILE_PATH } from '../release/set-gate-from-file.js';

/** One thing wrong with `.github/shipgate.yml`, where it is. */
export interface GateFileProblem {
  file: string;
  line: number | null;
  message: string;
}

/** The first line of the node at `path` (or of its nearest existing parent). */
function lineOf(text: string, path: (string | number)[]): number | null {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  for (let depth = path.length; depth > 0; depth -= 1) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return doc.contents?.range ? counter.linePos(doc.contents.range[0]).line : null;
}

/**
 * Places setGateFromFile's validation issues in the file: YAML syntax errors by the parser's
 * own position, schema errors by the node their path names (an unknown key: the mapping).
 */
export function gateFileProblems(text: string, issues: ValidationIssue[]): GateFileProblem[] {
  const counter = new LineCounter();
  const syntax = parseDocument(text, { lineCounter: counter }).errors;
  if (syntax.length > 0) {
    return syntax.map((e) => ({ file: GATE_FILE_PATH, line: e.linePos?.[0].line ?? null, message: e.message.split('\n')[0] }));
  }
  return issues.map((issue) => {
    const path = issue.loc[0] === GATE_FILE_PATH ? issue.loc.slice(1) : issue.loc;
    const field = path.length > 0 ? `${path.join('.')}: ` : '';
    return { file: GATE_FILE_PATH, line: lineOf(text, path), message: `${field}${issue.msg}` };
  });
}

export function formatGateFileProblem(problem: GateFileProblem): string {
  return `${problem.file}${problem.line === null ? '' : `:${problem.line}`}: ${problem.message}`;
}
