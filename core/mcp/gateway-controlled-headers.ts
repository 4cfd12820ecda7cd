/**
 * Header names (lower case) a registration may not set, since shipgate sends them itself. Framing and hop-by-hop headers
 * describe the connection to the upstream, not the request: a stored `Transfer-Encoding` beside the `Content-Length` the gateway
 * sends would let the upstream (or a proxy before it) read one request as two (request smuggling). The MCP ones are the
 * protocol's own (Streamable HTTP): a stored value would contradict what the gateway negotiates. `Proxy-Authorization` is
 * not here: it may be a proxy's credential.
 */
const GATEWAY_CONTROLLED_HEADERS = new Set([
  // Framing and the connection (RFC 9110 and 9112).
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
  // The MCP protocol, as the gateway speaks it.
  'content-type',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

/** Whether a header is one of those, in any case: refused at registration, and never sent from a row stored before that. */
export function isGatewayControlledHeader(name: string): boolean {
  return GATEWAY_CONTROLLED_HEADERS.has(name.toLowerCase());
}
