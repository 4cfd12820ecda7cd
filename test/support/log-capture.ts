import { Writable } from 'node:stream';

export interface LogCapture {
  stream: Writable;
  lines: string[];
  text(): string;
  /** The logged entries whose `event` is `event`, parsed. */
  events(event: string): Record<string, unknown>[];
}

/** A pino destination that keeps every line, so tests can assert on what was logged. */
export function logCapture(): LogCapture {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return {
    stream,
    lines,
    text: () => lines.join('\n'),
    events: (event) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.event === event),
  };
}
