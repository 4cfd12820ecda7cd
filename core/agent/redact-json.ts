import { redactOutput } from './output-rules.js';

/** The key a redacted key gets: the redaction itself, numbered when another key of the object already has it. */
function freeKey(taken: Set<string>, key: string): string {
  let name = key;
  for (let n = 2; taken.has(name); n++) name = `${key}#${n}`;
  taken.add(name);
  return name;
}

/**
 * The JSON value with the named output rules applied to every string in it, object keys
 * included (a tool may key a map by a token or an address), as a new value. Redacting each
 * value rather than the value's JSON text means a secret at a line start or after a tab is
 * seen as the reader sees it, not behind a `\n` or `\t` escape (docs/mcp-gateway.md).
 */
export function redactJson(rules: readonly string[], value: unknown): unknown {
  if (typeof value === 'string') return redactOutput(rules, value);
  if (Array.isArray(value)) return value.map((item) => redactJson(rules, item));
  if (typeof value !== 'object' || value === null) return value;
  const taken = new Set<string>();
  // Object.fromEntries defines each key as an own property, so a `__proto__` key stays data.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [freeKey(taken, redactOutput(rules, key)), redactJson(rules, item)]),
  );
}
