export interface JsonProblem {
  /** `syntax`: not JSON at all; `refused`: JSON, but a form the verifier does not accept. */
  kind: 'syntax' | 'refused';
  message: string;
}

interface Frame {
  /** Keys seen so far (objects only). */
  keys?: Set<string>;
  /** The current key or index: for naming where a problem is. */
  at: string | number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function pathOf(stack: Frame[]): string {
  return stack
    .map((f) => (typeof f.at === 'number' ? `[${f.at}]` : IDENTIFIER.test(f.at) ? `.${f.at}` : `[${JSON.stringify(f.at)}]`))
    .reduce((path, step) => path + step, '$');
}

/** The end (index after the closing quote) of the string starting at `start`, or -1 when it is not a JSON string. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -1;
    if (c === 0x5c) {
      const e = text[i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -1;
        i += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else return -1;
    }
  }
  return -1;
}

/**
 * Reads JSON text without building it, iteratively (no recursion, so no nesting breaks it),
 * and names the first thing the verifier refuses: a duplicate key in any object (JSON.parse
 * keeps the last copy, other readers the first, so the two copies could say different things
 * under one signature), nesting or a value count past the limits, or a number not written as
 * canonical JSON writes it (`1.0`, `-0`, `1e400`: the signed digest is over the parsed value,
 * so another spelling of the same value would verify while other readers see another value).
 * Undefined when the text is JSON the verifier accepts.
 */
export function findJsonProblem(text: string, limits: { maxDepth: number; maxValues: number }): JsonProblem | undefined {
  const stack: Frame[] = [];
  let i = 0;
  let values = 0;
  const skip = () => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
  };
  const syntax = (): JsonProblem => ({ kind: 'syntax', message: `unexpected ${i < text.length ? 'character' : 'end'} at offset ${i}` });
  const refused = (message: string): JsonProblem => ({ kind: 'refused', message: `${message} at ${pathOf(stack)}` });
  let state: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    skip();
    if (state === 'key') {
      if (text[i] !== '"') return syntax();
      const end = stringEnd(text, i);
      if (end < 0) return syntax();
      const raw = text.slice(i + 1, end - 1);
      const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
      const frame = stack[stack.length - 1];
      if (frame.keys!.has(key))
        return { kind: 'refused', message: `duplicate key ${JSON.stringify(key)} in the object at ${pathOf(stack.slice(0, -1))}` };
      frame.keys!.add(key);
      frame.at = key;
      i = end;
      skip();
      if (text[i] !== ':') return syntax();
      i++;
      state = 'value';
      continue;
    }
    if (state === 'after') {
      const frame = stack[stack.length - 1];
      if (!frame) return i === text.length ? undefined : syntax();
      const c = text[i++];
      if (c === ',') {
        if (frame.keys) state = 'key';
        else {
          (frame.at as number)++;
          state = 'value';
        }
      } else if (c === (frame.keys ? '}' : ']')) stack.pop();
      else return syntax();
      continue;
    }
    if (++values > limits.maxValues) return refused(`more than ${limits.maxValues} JSON values`);
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length >= limits.maxDepth) return refused(`nesting deeper than ${limits.maxDepth} levels`);
      i++;
      skip();
      if (text[i] === (c === '{' ? '}' : ']')) {
        i++;
        state = 'after';
      } else {
        stack.push(c === '{' ? { keys: new Set(), at: '' } : { at: 0 });
        state = c === '{' ? 'key' : 'value';
      }
      continue;
    }
    state = 'after';
    if (c === '"') {
      i = stringEnd(text, i);
      if (i < 0) return { kind: 'syntax', message: 'malformed string' };
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text)?.[0];
    if (number) {
      const value = Number(number);
      if (!Number.isFinite(value)) return refused(`number ${number.slice(0, 40)} out of range`);
      if (String(value) !== number)
        return refused(`number ${number.slice(0, 40)} not written as canonical JSON writes it (${String(value)})`);
      i += number.length;
      continue;
    }
    const literal = LITERALS.find((l) => text.startsWith(l, i));
    if (!literal) return syntax();
    i += literal.length;
  }
}
