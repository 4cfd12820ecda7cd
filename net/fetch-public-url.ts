import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { hostAllowlisted } from './host-allowlisted.js';
import { isPrivateAddress } from './is-private-address.js';
import type { FetchedPage, FetchLimits } from '../core/agent/tools/public-web.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

class PrivateAddressError extends Error {
  constructor(host: string) {
    super(`refused: ${host} resolves to a private, loopback or link-local address`);
  }
}

/** A DNS lookup for the socket that refuses private answers: the check happens on the address actually dialled. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.some((a) => isPrivateAddress(a.address))) return callback(new PrivateAddressError(hostname), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

function requestOnce(
  url: URL,
  allowlist: readonly string[],
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<FetchedPage & { location?: string }> {
  const allowlisted = hostAllowlisted(url, allowlist);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowlisted && isIP(host) && isPrivateAddress(host)) return Promise.reject(new PrivateAddressError(host));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      { signal, lookup: allowlisted ? undefined : (publicOnlyLookup as never), headers: { 'user-agent': 'shipgate-agent' } },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = status >= 300 && status < 400 ? response.headers.location : undefined;
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        response.on('data', (chunk: Buffer) => {
          if (truncated) return;
          size += chunk.length;
          chunks.push(chunk);
          if (size > limits.maxBytes) {
            truncated = true;
            response.destroy();
            finish();
          }
        });
        const finish = () => {
          const body = Buffer.concat(chunks).subarray(0, limits.maxBytes).toString('utf8');
          resolve({ url: url.toString(), status, contentType: response.headers['content-type'] ?? null, body, truncated, location });
        };
        response.on('end', finish);
        response.on('error', (error) => (truncated ? undefined : reject(error)));
      },
    );
    request.on('error', reject);
  });
}

/**
 * GET over http/https with the private-address guard on every hop (redirects included), the
 * body cut at `maxBytes`; the caller's signal bounds the time.
 */
export async function fetchPublicUrl(
  start: URL,
  allowlist: readonly string[],
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<FetchedPage> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const page = await requestOnce(url, allowlist, limits, signal);
    if (!page.location || hop >= limits.maxRedirects) return page;
    url = new URL(page.location, url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`refused: redirect to ${url.protocol} URL`);
  }
}
