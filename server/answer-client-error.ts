import type { Duplex } from 'node:stream';

/**
 * How long a client has to send a whole request (headers and body) before it is answered 408: a
 * body that never ends (a Content-Length larger than what is sent) holds a connection no longer
 * than this. Node's default is 300 s; two minutes still take the largest body (16 MiB) at about
 * 1.1 Mbit/s. A held call's wait is not counted: its request has arrived (docs/operations.md).
 */
export const REQUEST_TIMEOUT_MS = 120_000;

/** What a request Node refuses before shipgate sees it is told, by the error Node names. */
const REFUSALS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', `The request was not received in full within ${REQUEST_TIMEOUT_MS / 1000} seconds.`],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers exceed 16 KiB.'],
};
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'Malformed HTTP request.'];

/**
 * The server's `clientError` listener: a request Node refuses itself (headers too large, a body
 * not received in time, HTTP it cannot parse) is answered `{"detail": ...}` as every error is
 * (README, "A tour"), where Node would answer with an empty body. As Node does, nothing is written
 * once a response to the connection has begun, and the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }): void {
  if (error.code !== 'ECONNRESET' && socket.writable && !socket._httpMessage?.headersSent) {
    const [status, reason, detail] = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({ detail });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
