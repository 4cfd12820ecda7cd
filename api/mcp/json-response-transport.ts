import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** Whether a message is a request, whose answer a POST waits for (a response or notification is not). */
export function isRequestMessage(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
  return 'method' in message && 'id' in message && !('result' in message) && !('error' in message);
}

/**
 * The SDK's `Transport` for the gateway's Streamable HTTP, one exchange per POST
 * (docs/mcp-gateway.md, "How the gateway is built"): the messages of a request go to the SDK's
 * `Server` (protocol, validation of each request, handlers) and the responses to its requests
 * come back to be answered as one JSON body. No web-standard `Request`/`Response` or stream is
 * made. Messages the server sends on its own (notifications, requests to the client) have no
 * open stream to go to and are dropped: the gateway sends none that a client needs.
 */
export class JsonResponseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly waiting = new Map<RequestId, (message: JSONRPCMessage) => void>();
  private closed = false;

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || message.id === undefined || isRequestMessage(message)) return;
    const answer = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    answer?.(message);
  }

  /** Hands `messages` to the server; resolves with the responses to its requests, in their order. */
  exchange(messages: JSONRPCMessage[], authInfo?: AuthInfo): Promise<JSONRPCMessage[]> {
    const answers: Promise<JSONRPCMessage>[] = [];
    for (const message of messages) {
      if (!isRequestMessage(message)) continue;
      if (this.closed) answers.push(Promise.resolve(closedAnswer(message.id)));
      else answers.push(new Promise((resolve) => this.waiting.set(message.id, resolve)));
    }
    if (!this.closed) for (const message of messages) this.onmessage?.(message, { authInfo });
    return Promise.all(answers);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, answer] of this.waiting) answer(closedAnswer(id));
    this.waiting.clear();
    this.onclose?.();
  }
}

const closedAnswer = (id: RequestId): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32001, message: 'The MCP session ended on this server; send the request again.' },
});
