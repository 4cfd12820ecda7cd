import { redactOutput } from '../agent/output-rules.js';
import { redactJson } from '../agent/redact-json.js';
import { decodeStrictBase64 } from '../certificates/strict-base64.js';
import { isRecord } from '../evidence-content/document-text.js';
import type { UpstreamResult } from './mcp-upstream-client.js';

/** A base64 member larger than this once decoded is not scanned (docs/mcp-gateway.md): it is unscannable. */
export const MAX_SCANNED_BLOB_BYTES = 1024 * 1024;

/** What the output rules made of an upstream's result: the redacted result, and what in it could not be scanned. */
export interface RedactedToolResult {
  result: UpstreamResult;
  /** Each base64 member that could not be scanned, with why (e.g. `content[0].data: not UTF-8 text`). */
  unscannable: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The base64 text redacted within its decoded UTF-8 text and encoded again, or why it cannot be scanned. */
function redactBase64(rules: readonly string[], encoded: string): { encoded: string } | { why: string } {
  if (encoded.length > (MAX_SCANNED_BLOB_BYTES / 3) * 4 + 4) return { why: `larger than ${MAX_SCANNED_BLOB_BYTES} bytes` };
  const bytes = decodeStrictBase64(encoded);
  if (!bytes) return { why: 'not base64' };
  if (bytes.length > MAX_SCANNED_BLOB_BYTES) return { why: `larger than ${MAX_SCANNED_BLOB_BYTES} bytes` };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { why: 'not UTF-8 text' };
  }
  const redacted = redactOutput(rules, text);
  return { encoded: redacted === text ? encoded : Buffer.from(redacted, 'utf8').toString('base64') };
}

/** Where the MCP schema says a content item holds base64: an image's or audio's `data`, an embedded resource's `blob`. */
function base64Member(item: Record<string, unknown>): { holder: 'item' | 'resource'; key: 'data' | 'blob' } | null {
  if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') return { holder: 'item', key: 'data' };
  if (item.type === 'resource' && isRecord(item.resource) && typeof item.resource.blob === 'string')
    return { holder: 'resource', key: 'blob' };
  return null;
}

/**
 * An upstream's `tools/call` result through the policy's output rules (docs/mcp-gateway.md,
 * "Redaction"): every string of it (content, structured content, object keys) redacted as a
 * value, and each base64 member of a content item decoded, redacted within its text and
 * encoded again. A base64 member that is not UTF-8 text, not base64 or too large is left as it
 * is and named in `unscannable`: the caller decides whether the result may pass.
 */
export function redactToolResult(rules: readonly string[], result: UpstreamResult): RedactedToolResult {
  const unscannable: string[] = [];
  const content = result.content.map((item, i) => {
    const member = base64Member(item);
    if (!member) return redactJson(rules, item) as Record<string, unknown>;
    // The base64 member is left out of the walk: its text is base64, scanned once decoded.
    const holder = member.holder === 'item' ? item : (item.resource as Record<string, unknown>);
    const { [member.key]: encoded, ...others } = holder;
    const outcome = redactBase64(rules, encoded as string);
    if ('why' in outcome) unscannable.push(`content[${i}].${member.holder === 'item' ? '' : 'resource.'}${member.key}: ${outcome.why}`);
    const redactedHolder = {
      ...(redactJson(rules, others) as Record<string, unknown>),
      [member.key]: 'why' in outcome ? encoded : outcome.encoded,
    };
    if (member.holder === 'item') return redactedHolder;
    const { resource: _resource, ...rest } = item;
    return { ...(redactJson(rules, rest) as Record<string, unknown>), resource: redactedHolder };
  });
  return {
    result: {
      content,
      ...(result.structuredContent ? { structuredContent: redactJson(rules, result.structuredContent) as Record<string, unknown> } : {}),
      isError: result.isError,
    },
    unscannable,
  };
}
