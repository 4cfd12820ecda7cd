/** What http_get fetched: the final URL after redirects, the status and the body (cut at the limit). */
export interface FetchedPage {
  url: string;
  status: number;
  contentType: string | null;
  body: string;
  truncated: boolean;
}

export interface FetchLimits {
  maxBytes: number;
  maxRedirects: number;
}

/**
 * The network port of the agent's http_get tool (implemented in net/): core decides what may be
 * fetched and what the model sees; the adapter resolves names and dials.
 */
export interface PublicWeb {
  /** null when the host is allowlisted or resolves only to public addresses; else `private_address` or `unresolvable_host`. */
  checkHost(url: URL, allowlist: readonly string[]): Promise<string | null>;
  /** GET with the private-address guard on every hop; the signal bounds the time. */
  fetch(url: URL, allowlist: readonly string[], limits: FetchLimits, signal: AbortSignal): Promise<FetchedPage>;
}
