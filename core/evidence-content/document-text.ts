import { EvidenceDocumentInvalid } from '../errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The document as UTF-8 text (a byte order mark is dropped), or EvidenceDocumentInvalid at loc []. */
export function documentText(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new EvidenceDocumentInvalid([], 'The document is empty.');
  try {
    return decoder.decode(bytes);
  } catch {
    throw new EvidenceDocumentInvalid([], 'The document is not UTF-8 text.');
  }
}

/** Line and column (1-based) of a character offset, for messages about a place in the text. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** JSON.parse, with a syntax error turned into EvidenceDocumentInvalid at loc [] naming the place. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? ` at ${lineAndColumn(text, Number(position[1]))}` : '';
    throw new EvidenceDocumentInvalid([], `The document is not valid JSON${where}: ${message}.`);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
