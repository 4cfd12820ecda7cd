import { jsonBodyFacts, type JsonBodyProblem, type JsonBodyRead } from '../api/middleware/json-body.js';

/**
 * Runs in a parse thread (server/thread-pool-evidence-parser.ts): a request body over 1 MiB, decoded and parsed there
 * instead of on the event loop (api/middleware/json-body.ts). Bytes that are not JSON are an answer, not a throw: an
 * error crossing the thread boundary loses its meaning.
 */
export function parseJsonBodyTask(bytes: Uint8Array): JsonBodyRead | { malformed: true } | { problem: JsonBodyProblem } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return { malformed: true };
  }
  const facts = jsonBodyFacts(bytes, value);
  return 'problem' in facts ? facts : { value, ...facts };
}
