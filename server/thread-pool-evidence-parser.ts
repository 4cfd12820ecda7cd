import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import Tinypool from 'tinypool';
import { EvidenceDocumentInvalid, EvidenceParseDeadlineExceeded } from '../core/errors.js';
import type { EvidenceParser } from '../core/evidence-content/evidence-parser.js';
import type { JsonBodyParser } from '../api/middleware/json-body.js';
import type { EvidenceParseOutcome, EvidenceParseTask } from './evidence-parse-task.js';

/**
 * Parse threads: one core is left to the event loop (requests, the in-process job worker), and at most four parse
 * at once, each holding its document's memory while it reads (docs/operations.md, "Security").
 */
export const PARSE_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

/**
 * The heap one parse thread may use (docs/operations.md, "Documents are parsed off the event loop"). A 10 MiB
 * document of any format reads in about 100 MB; crafted XML (millions of unclosed tags) took the validator's thread
 * past 500 MB, and the server past 1.9 GB. Past it the thread is terminated and the upload refused.
 */
export const PARSE_THREAD_HEAP_MB = 256;

/** Whether a pool task failed because its thread ran out of the heap PARSE_THREAD_HEAP_MB allows. */
function outOfMemory(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

const outOfMemoryMessage = `The document needs more memory to read than the ${PARSE_THREAD_HEAP_MB} MB one parse thread has. Nothing was stored.`;

/** A thread left idle this long exits, so an idle server holds none; the next upload starts one again. */
const IDLE_THREAD_MS = 60_000;

const THREAD_ENTRY = fileURLToPath(new URL('./evidence-parse-thread.js', import.meta.url));

/** The server's EvidenceParser, the parser of large request bodies, and the pool's end (serve's stop, a test's close). */
export interface PooledEvidenceParser extends EvidenceParser {
  parseJsonBody: JsonBodyParser;
  close(): Promise<void>;
}

/** The body's bytes handed to the thread without a copy when they fill their own buffer (Buffer.concat's are). */
function transferable(bytes: Buffer): ArrayBuffer[] {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? [bytes.buffer as ArrayBuffer] : [];
}

/**
 * Reads uploaded evidence documents (readEvidenceDocument: decoding, digest, parse) in a pool of worker threads, off
 * the event loop (docs/operations.md, "Security"). The deadline runs from when a thread starts the document, not from
 * when the upload was queued: past it the task is aborted, which terminates that thread (the pool starts another when
 * needed), and EvidenceParseDeadlineExceeded is thrown.
 */
export function threadPoolEvidenceParser({
  deadlineSeconds,
  threads = PARSE_THREADS,
}: {
  deadlineSeconds: number;
  threads?: number;
}): PooledEvidenceParser {
  const pool = new Tinypool({
    filename: THREAD_ENTRY,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: IDLE_THREAD_MS,
    resourceLimits: { maxOldGenerationSizeMb: PARSE_THREAD_HEAP_MB },
  });
  const deadlineMs = deadlineSeconds * 1000;
  return {
    async read(content, declared, keys) {
      const { port1: started, port2: startedInThread } = new MessageChannel();
      const abort = new AbortController();
      let deadline: NodeJS.Timeout | undefined;
      // Timed from the thread's own clock reading, so a busy event loop receiving the message late grants no extra time.
      started.once('message', (startedAt: number) => {
        deadline = setTimeout(() => abort.abort(), Math.max(0, deadlineMs - (Date.now() - startedAt)));
      });
      const task: EvidenceParseTask = { content, declared, keys, started: startedInThread };
      try {
        const outcome: EvidenceParseOutcome = await pool.run(task, { transferList: [startedInThread], signal: abort.signal });
        if ('invalid' in outcome) throw new EvidenceDocumentInvalid(outcome.invalid.loc, outcome.invalid.message);
        return outcome.read;
      } catch (error) {
        if (abort.signal.aborted) throw new EvidenceParseDeadlineExceeded(deadlineSeconds);
        if (outOfMemory(error)) throw new EvidenceDocumentInvalid([], outOfMemoryMessage);
        throw error;
      } finally {
        clearTimeout(deadline);
        started.close();
      }
    },
    // Queued with the documents: ten large uploads at once are parsed PARSE_THREADS at a time, none on the event loop.
    parseJsonBody: (bytes) => pool.run(bytes, { name: 'parseJsonBody', transferList: transferable(bytes) }),
    close: () => pool.destroy(),
  };
}
