import { Readable } from 'node:stream';

/**
 * A JSON body already made as bytes, sent in its parts without joining them: a decision's remembered text and the
 * tail that changes per request (core/release/decision-answer-json.ts). Joining a 25 KB answer allocated a new 25 KB
 * buffer per request, and its collection cost the rules' heads throughput and p99 (docs/benchmarks.md). The parts are
 * never changed, so concurrent responses may share them. `text()` is the whole body, for the tests' response contract.
 */
export class JsonPartsBody extends Readable {
  constructor(private readonly parts: readonly Buffer[]) {
    super();
  }

  /** The body's length in bytes, for `Content-Length`. */
  get byteLength(): number {
    return this.parts.reduce((n, p) => n + p.length, 0);
  }

  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }

  override _read(): void {
    for (const part of this.parts) this.push(part);
    this.push(null);
  }
}
