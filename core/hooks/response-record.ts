import { ENTRY_OUTPUT_BYTES } from '../agent/handle-tool-call.js';
import { redactJson } from '../agent/redact-json.js';
import { truncateUtf8 } from '../agent/truncate-utf8.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import { isStorableText, storableText } from '../storable-text.js';

/**
 * The largest response redacted whole (docs/agent-hooks.md, "Records"): redacting walks every value,
 * ~150 ms a MiB of small ones, on the event loop; a post of 200,000 small objects (7.6 MB) held it
 * 4 s, ten at once 40 s. A larger response is digested as its JSON text as sent, and only the part
 * of it kept is redacted: the agent already has the response, shipgate keeps 4 KiB of it.
 */
export const RESPONSE_REDACTED_WHOLE_BYTES = 256 * 1024;

/**
 * What a post records of a tool's response: the SHA-256 of it redacted by the policy's output rules
 * (of a response over RESPONSE_REDACTED_WHOLE_BYTES, of its JSON text as sent) and its first 4 KiB
 * redacted. A NUL or a lone surrogate (only a string can hold one: JSON.stringify escapes them) is
 * kept as U+FFFD, as the gateway keeps such a result, made storable after the cut and cut again
 * (U+FFFD takes 3 bytes, a NUL 1).
 */
export function responseRecord(rules: readonly string[], response: unknown): { digest: string; output: string } {
  const text = JSON.stringify(response ?? null);
  let digest: string;
  let kept: string;
  if (text.length <= RESPONSE_REDACTED_WHOLE_BYTES) {
    const redacted = redactJson(rules, response ?? null);
    digest = sha256Hex(canonicalJson(redacted));
    kept = truncateUtf8(typeof redacted === 'string' ? redacted : JSON.stringify(redacted), ENTRY_OUTPUT_BYTES);
  } else {
    digest = sha256Hex(text);
    // Twice what is kept, so a secret across the cut is still one string to the detectors; a string as itself, as above.
    const start = (typeof response === 'string' ? response : text).slice(0, 2 * ENTRY_OUTPUT_BYTES);
    kept = truncateUtf8(redactJson(rules, start) as string, ENTRY_OUTPUT_BYTES);
  }
  return { digest, output: isStorableText(kept) ? kept : truncateUtf8(storableText(kept), ENTRY_OUTPUT_BYTES) };
}
