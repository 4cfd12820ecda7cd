import { isNode, isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';

/**
 * The largest gate file read (docs/operations.md, "Regular expressions"): a real gate is a few hundred
 * bytes, and anyone who can push to the default branch chooses the file every delivery parses.
 */
export const GATE_FILE_MAX_BYTES = 64 * 1024;

/** A YAML problem of the file, where it is. */
export interface GateFileSyntaxError {
  line: number | null;
  message: string;
}

/** `.github/shipgate.yml` read once: too big to read, not YAML, or its content with a way to find a field's line. */
export type GateFileText =
  | { kind: 'too_big'; bytes: number; message: string }
  | { kind: 'not_yaml'; errors: GateFileSyntaxError[] }
  | { kind: 'yaml'; content: unknown; lineOf(path: (string | number)[]): number | null };

/** The first line of the node at `path` (or of its nearest existing parent). */
function lineIn(doc: Document, counter: LineCounter, path: (string | number)[]): number | null {
  for (let depth = path.length; depth > 0; depth -= 1) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return doc.contents?.range ? counter.linePos(doc.contents.range[0]).line : null;
}

/**
 * A key equal to an earlier one of its mapping, as the error the parser gives it. The parser's own
 * check compares each key with every earlier one (64 KiB of short keys took 4 s), so the file is
 * parsed without it and the keys are checked here with one set per mapping, by the same rule: two
 * scalar keys with equal values (NaN is equal to nothing).
 */
function duplicateKeys(doc: Document, counter: LineCounter): { offset: number; error: GateFileSyntaxError }[] {
  const found: { offset: number; error: GateFileSyntaxError }[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key) || Number.isNaN(key.value)) continue;
        if (!seen.has(key.value)) {
          seen.add(key.value);
          continue;
        }
        const offset = key.range?.[0] ?? 0;
        const { line, col } = counter.linePos(offset);
        found.push({ offset, error: { line, message: `Map keys must be unique at line ${line}, column ${col}:` } });
      }
    },
  });
  return found;
}

/**
 * How deeply a gate file's flow collections (`[…]`, `{…}`) may nest. Deeper, the parser ran out of
 * stack and the file's problem read "Maximum call stack size exceeded"; a real gate nests a few
 * levels. Indentation cannot nest past a few hundred levels within GATE_FILE_MAX_BYTES.
 */
const MAX_FLOW_DEPTH = 100;

/** The line where the file's brackets first nest past MAX_FLOW_DEPTH (counted as written, quotes included), or null. */
function lineNestingTooDeep(text: string): number | null {
  let depth = 0;
  let line = 1;
  for (const c of text) {
    if (c === '\n') line++;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_FLOW_DEPTH) return line;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return null;
}

/**
 * Reads `.github/shipgate.yml` in time linear in its size (docs/operations.md, "Regular
 * expressions"): refused unparsed over GATE_FILE_MAX_BYTES, else parsed once with one line
 * counter, which places YAML errors (each as the first line of the parser's message) and, later,
 * the fields a validation issue names.
 */
export function readGateFile(text: string): GateFileText {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > GATE_FILE_MAX_BYTES) {
    return {
      kind: 'too_big',
      bytes,
      message: `The file is ${bytes} bytes; shipgate reads a gate file of at most ${GATE_FILE_MAX_BYTES} bytes (64 KiB).`,
    };
  }
  const deep = lineNestingTooDeep(text);
  if (deep !== null)
    return { kind: 'not_yaml', errors: [{ line: deep, message: `Lists and mappings nest deeper than ${MAX_FLOW_DEPTH} levels.` }] };
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
  const errors = [
    ...doc.errors.map((e) => ({ offset: e.pos[0], error: { line: e.linePos?.[0].line ?? null, message: e.message.split('\n')[0] } })),
    ...duplicateKeys(doc, counter),
  ].sort((a, b) => a.offset - b.offset);
  if (errors.length > 0) return { kind: 'not_yaml', errors: errors.map((e) => e.error) };
  const lineOf = (path: (string | number)[]) => lineIn(doc, counter, path);
  try {
    return { kind: 'yaml', content: doc.toJS(), lineOf };
  } catch (error) {
    // The parser's guard against aliases that expand beyond reason (a "billion laughs").
    return { kind: 'not_yaml', errors: [{ line: lineOf([]), message: (error as Error).message.split('\n')[0] }] };
  }
}
