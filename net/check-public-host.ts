import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { hostAllowlisted } from './host-allowlisted.js';
import { isPrivateAddress } from './is-private-address.js';

/**
 * The argument rule of http_get: null when the URL's host is allowlisted or resolves only to
 * public addresses; `private_address` when any address is private, loopback or link-local;
 * `unresolvable_host` when it does not resolve (fail closed). The connection re-checks the
 * addresses it actually uses (see fetch-public-url.ts), so DNS rebinding gains nothing.
 */
export async function checkPublicHost(url: URL, allowlist: readonly string[]): Promise<string | null> {
  if (hostAllowlisted(url, allowlist)) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host) ? 'private_address' : null;
  try {
    const addresses = await lookup(host, { all: true, verbatim: true });
    if (addresses.length === 0) return 'unresolvable_host';
    return addresses.some((a) => isPrivateAddress(a.address)) ? 'private_address' : null;
  } catch {
    return 'unresolvable_host';
  }
}
