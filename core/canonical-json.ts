import { createHash } from 'node:crypto';

function serialize(value: unknown, path: string): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return serialize((value as { toJSON(): unknown }).toJSON(), path);
  }
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // A digest over NaN or Infinity would silently collapse to "null"; refuse instead.
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number at ${path}`);
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw new TypeError(`canonicalJson: bigint at ${path}`);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item, i) => serialize(item, `${path}[${i}]`) ?? 'null').join(',')}]`;
  }
  const members: string[] = [];
  // Default sort compares UTF-16 code units, which is what RFC 8785 prescribes.
  for (const key of Object.keys(value as object).sort()) {
    const member = serialize((value as Record<string, unknown>)[key], `${path}.${key}`);
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * RFC 8785 (JCS) style canonical JSON: keys sorted, no whitespace, ECMAScript number and
 * string serialisation. Undefined members are omitted (as JSON.stringify does), so a value
 * and its JSON round trip have the same canonical form, and therefore the same digest.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, '$') ?? 'null';
}

/** Hex SHA-256 of a string (UTF-8) or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Hex SHA-256 of the canonical JSON of `value`: the digest of every record we sign or chain. */
export function canonicalDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
