import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { hostAllowlisted } from './host-allowlisted.js';
import { isPrivateAddress } from './is-private-address.js';

/** Every address the system resolver gives for `host`, in its order. */
function resolveAll(host: string): Promise<LookupAddress[]> {
  return lookup(host, { all: true, verbatim: true });
}

/**
 * The argument rule of http_get: null when the URL's host is allowlisted or resolves only to
 * public addresses; `private_address` when any address is not public unicast (isPrivateAddress);
 * `unresolvable_host` when it does not resolve (fail closed). The connection re-checks the
 * addresses it actually uses (see fetch-public-url.ts), so DNS rebinding gains nothing.
 * `resolve` is the system resolver; a test passes one that answers what a hostile DNS would.
 */
export async function checkPublicHost(url: URL, allowlist: readonly string[], resolve = resolveAll): Promise<string | null> {
  if (hostAllowlisted(url, allowlist)) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host) ? 'private_address' : null;
  try {
    const addresses = await resolve(host);
    if (addresses.length === 0) return 'unresolvable_host';
    return addresses.some((a) => isPrivateAddress(a.address)) ? 'private_address' : null;
  } catch {
    return 'unresolvable_host';
  }
}
