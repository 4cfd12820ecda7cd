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

/** A cursor's time as issued: UTC to the microsecond (db/keyset-page.ts), year 1 to 9999. */
const CURSOR_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?Z$/;

/**
 * Whether `text` is a time as a cursor carries it. Only that form: PostgreSQL refuses some times
 * JavaScript parses (an offset of +25 hours, year 0, 31 February), which made a crafted cursor a
 * 500, and reads others differently (`Nov 29 2026`).
 */
export function isCursorTime(text: string): boolean {
  const parts = CURSOR_TIME.exec(text);
  if (!parts || parts[1] === '0000') return false;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
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
      isCursorTime(value[0]) &&
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value[1])
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  return undefined;
}
