import type Koa from 'koa';
import {
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { isBodyRefusal, readJsonBody } from '../middleware/json-body.js';

/** A JSON-RPC error answered with an HTTP status, as the SDK's Streamable HTTP server answers them. */
export interface McpRefusal {
  status: number;
  body: { jsonrpc: '2.0'; error: { code: number; message: string }; id: null };
}

export const mcpRefusal = (status: number, code: number, message: string): McpRefusal => ({
  status,
  body: { jsonrpc: '2.0', error: { code, message }, id: null },
});

/** The most messages one POST may carry (a JSON-RPC batch), as the SDK's server transport allows. */
const MAX_BATCH = 100;

/** A POST's messages, and whether they came as a batch (answered as an array). */
export interface McpPost {
  messages: JSONRPCMessage[];
  batch: boolean;
}

/** The `Mcp-Protocol-Version` header's refusal: a version this server does not speak (none: the negotiated one). */
export function protocolVersionRefusal(ctx: Koa.Context): McpRefusal | null {
  const version = ctx.get('Mcp-Protocol-Version');
  if (!version || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  return mcpRefusal(
    400,
    -32000,
    `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
  );
}

/** Streamable HTTP's rules for a POST's headers: it accepts JSON and event streams (406) and sends JSON (415). */
export function postHeadersRefusal(ctx: Koa.Context): McpRefusal | null {
  const accept = ctx.get('Accept');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
    return mcpRefusal(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  if (!/^application\/json\s*(?:;|$)/i.test(ctx.get('Content-Type')))
    return mcpRefusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  return null;
}

/**
 * A POST's JSON-RPC messages, read through the API's one body reader (1 MiB); a refusal for a
 * body that is none (too large, not JSON, not JSON-RPC, a batch over 100). Requests and
 * notifications are checked with the SDK's own schemas, as its server transport checks them;
 * the SDK's server then validates each request's parameters against its method's schema.
 */
export async function readMcpPost(ctx: Koa.Context): Promise<McpPost | McpRefusal> {
  let body: unknown;
  try {
    body = await readJsonBody(ctx);
  } catch (error) {
    if (!isBodyRefusal(error)) throw error;
    const { status, message } = error as Error & { status: number };
    return mcpRefusal(status, status === 400 ? -32700 : -32000, message);
  }
  const batch = Array.isArray(body);
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (messages.length > MAX_BATCH) return mcpRefusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
  if (messages.length === 0 || !messages.every(isMessage)) return mcpRefusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
  return { messages, batch };
}

function isMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') return false;
  if ('method' in value) return 'id' in value ? isJSONRPCRequest(value) : isJSONRPCNotification(value);
  // A response to a request of the server's: it sends none, so it is passed on and answers nothing.
  return 'id' in value && ('result' in value || 'error' in value);
}

/** The one `initialize` request of a POST that opens an MCP session, else undefined. */
export function initializeOf(post: McpPost) {
  const [message] = post.messages;
  return post.messages.length === 1 && isInitializeRequest(message) ? message : undefined;
}
