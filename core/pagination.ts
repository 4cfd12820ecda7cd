/** Keyset pagination: lists are newest first, a page ends with an opaque cursor to the next. */
export interface PageRequest {
  limit: number;
  cursor?: Cursor;
}

export interface Cursor {
  createdAt: string;
  id: string;
}

export interface Page<T> {
  items: T[];
  next?: Cursor;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

/** Returns undefined for anything that is not a cursor we issued. */
export function decodeCursor(raw: string): Cursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      !Number.isNaN(Date.parse(value[0])) &&
      /^[0-9a-f-]{36}$/i.test(value[1])
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  return undefined;
}
