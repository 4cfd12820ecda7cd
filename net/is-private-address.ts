import { BlockList, isIP } from 'node:net';
import { ipv6Groups } from '../core/ipv6-groups.js';

type Subnet = readonly [network: string, prefix: number];

function blockListOf(type: 'ipv4' | 'ipv6', subnets: readonly Subnet[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, type);
  return list;
}

/**
 * Every IPv4 block of IANA's IPv4 Special-Purpose Address Registry that is not globally
 * reachable, the deprecated 6to4 relay anycast block, and multicast (docs/operations.md,
 * "Security"). Whole blocks are refused even where the registry lists a reachable anycast
 * address inside one (192.0.0.9, 192.0.0.10): an agent has nothing to fetch there.
 */
const NON_PUBLIC_IPV4 = blockListOf('ipv4', [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (DS-Lite, NAT64 discovery, ...)
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved
  ['255.255.255.255', 32], // limited broadcast
]);

/** Global unicast: IANA has allocated nothing else for public use; outside it every IPv6 address is refused. */
const GLOBAL_UNICAST_IPV6 = blockListOf('ipv6', [['2000::', 3]]);

/**
 * The blocks inside global unicast that IANA's IPv6 Special-Purpose Address Registry marks not
 * globally reachable. 2001::/23 is refused whole (Teredo, benchmarking, ORCHID and the few
 * anycast services in it). 2002::/16 (6to4) is not listed: it is judged by its IPv4 address.
 */
const NON_PUBLIC_IPV6 = blockListOf('ipv6', [
  ['2001::', 23], // IETF protocol assignments
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
]);

const dotted = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address carries, where the bits say where it sits: IPv4-compatible
 * `::/96` (also `::` and `::1`, which become 0.0.0.0 and 0.0.0.1), IPv4-mapped `::ffff:0:0/96`,
 * IPv4-translated `::ffff:0:0:0/96`, NAT64's well-known `64:ff9b::/96`, and 6to4's `2002::/16`.
 * Local-use NAT64 (`64:ff9b:1::/48`) is not here: its operator picks where the IPv4 address sits,
 * so the address alone does not say, and it is refused with everything outside global unicast.
 */
function carriedIPv4(g: number[]): string | null {
  const zeroes = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeroes(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return dotted(g[6], g[7]);
  if (zeroes(0, 4) && g[4] === 0xffff && g[5] === 0) return dotted(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeroes(2, 6)) return dotted(g[6], g[7]);
  if (g[0] === 0x2002) return dotted(g[1], g[2]);
  return null;
}

/**
 * True for an address http_get must not reach: anything but a public unicast address. An IPv6
 * address that carries an IPv4 address is judged as that IPv4 address; text that is not an
 * address (a zone id included) is refused.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return NON_PUBLIC_IPV4.check(bare, 'ipv4');
  const groups = family === 6 ? ipv6Groups(bare) : null;
  if (!groups) return true;
  const ipv4 = carriedIPv4(groups);
  if (ipv4) return NON_PUBLIC_IPV4.check(ipv4, 'ipv4');
  return !GLOBAL_UNICAST_IPV6.check(bare, 'ipv6') || NON_PUBLIC_IPV6.check(bare, 'ipv6');
}
