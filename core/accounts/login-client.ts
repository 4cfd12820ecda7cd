import { ipv6Groups } from '../ipv6-groups.js';

/**
 * Who the login throttle counts as one client (core/accounts/login-throttle.ts): an IPv4 address
 * as it is, an IPv6 address by its /64. One host usually holds a whole /64 and can change
 * address within it at will, so counting IPv6 addresses one by one would give it 2^64 fresh
 * starts. An IPv4-mapped address counts as its IPv4 address.
 */
export function loginClientOf(address: string): string {
  const groups = address.includes(':') ? ipv6Groups(address) : null;
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
