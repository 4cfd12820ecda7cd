import { Writable } from 'node:stream';

/** A pino destination that keeps every line, so tests can assert on what was logged. */
export function logCapture(): { stream: Writable; lines: string[]; text(): string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, text: () => lines.join('\n') };
}
