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
    const passed: JSONRPCMessage[] = [];
    for (const message of messages) {
      if (!isRequestMessage(message)) passed.push(message);
      else if (this.closed) answers.push(Promise.resolve(closedAnswer(message.id)));
      // An id already awaiting its answer would take that answer from the request that sent it first.
      else if (this.waiting.has(message.id)) answers.push(Promise.resolve(refusedAnswer(message.id, 'Invalid Request: this id is in use')));
      else {
        answers.push(new Promise((resolve) => this.waiting.set(message.id, resolve)));
        passed.push(message);
      }
    }
    if (!this.closed) for (const message of passed) this.onmessage?.(message, { authInfo });
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

const refusedAnswer = (id: RequestId, message: string, code = -32600): JSONRPCMessage => ({ jsonrpc: '2.0', id, error: { code, message } });
const closedAnswer = (id: RequestId) => refusedAnswer(id, 'The MCP session ended on this server; send the request again.', -32001);
