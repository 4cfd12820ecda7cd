import { readGateFileText, type GateFileReading } from './gate-file-problems.js';

/**
 * Where `.github/shipgate.yml` is read (readGateFileText: parsed, validated, its problems placed),
 * run wherever the adapter runs it. The server reads it off the event loop, in a worker thread
 * (server/thread-pool-gate-file-reader.ts): the YAML parser takes a tenth of a second or more over
 * a file near its 64 KiB limit (docs/operations.md, "Regular expressions").
 */
export interface GateFileReader {
  read(text: string): Promise<GateFileReading>;
}

/** Reads in the caller's thread: for callers without the server's thread (tests, tools). */
export const inProcessGateFileReader: GateFileReader = {
  read: async (text) => readGateFileText(text),
};
