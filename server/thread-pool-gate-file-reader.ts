import { fileURLToPath } from 'node:url';
import Tinypool from 'tinypool';
import type { GateFileReader } from '../core/github/gate-file-reader.js';
import type { GateFileReading } from '../core/github/gate-file-problems.js';

/** The thread left idle this long exits, so an idle server holds none; the next gate file starts it again. */
const IDLE_THREAD_MS = 60_000;

const THREAD_ENTRY = fileURLToPath(new URL('./gate-file-thread.js', import.meta.url));

/** The server's GateFileReader, and the thread's end (serve's stop, a test's close). */
export interface PooledGateFileReader extends GateFileReader {
  close(): Promise<void>;
}

/**
 * Reads `.github/shipgate.yml` in a worker thread, off the event loop (docs/operations.md, "Regular
 * expressions"): the YAML parser takes a tenth of a second or more over a file near the 64 KiB limit,
 * which a repository's writers choose and every delivery reads. One thread: files are small and
 * their reads short; no deadline, since the limit bounds each read.
 */
export function threadPoolGateFileReader(): PooledGateFileReader {
  const pool = new Tinypool({ filename: THREAD_ENTRY, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_THREAD_MS });
  return {
    read: (text) => pool.run(text) as Promise<GateFileReading>,
    close: () => pool.destroy(),
  };
}
