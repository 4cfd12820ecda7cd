import type { LookupAddress } from 'node:dns';
import { verifyToolCall } from '../../core/agent/verify-tool-call.js';
import { ipv6Groups } from '../../core/ipv6-groups.js';
import { checkPublicHost } from '../../net/check-public-host.js';
import { publicWeb } from '../../net/guarded-public-web.js';
import { isPrivateAddress } from '../../net/is-private-address.js';
import { call } from '../support/scripted-provider.js';
import { verifyContext } from './support/verify-context.js';

/** Addresses http_get must not reach, each with why (docs/operations.md, "Security"). */
const PRIVATE: [string, string][] = [
  ['0.0.0.0', '"this network"'],
  ['0.1.2.3', '"this network"'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.254', 'carrier-grade NAT'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.31.0.1', 'private'],
  ['192.0.0.9', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', 'deprecated 6to4 relay'],
  ['192.168.1.1', 'private'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.1', 'documentation'],
  ['203.0.113.1', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback, as a URL writes it'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback in hexadecimal'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped metadata address, uncompressed'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::7f00:1', 'IPv4-compatible loopback in hexadecimal'],
  ['::a00:1', 'IPv4-compatible private'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
  ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
  ['64:ff9b:1::808:808', 'local-use NAT64: where the IPv4 address sits is the operator’s choice'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:a9fe:a9fe::', '6to4 of the metadata address'],
  ['100::1', 'discard-only'],
  ['100:0:0:1::1', 'dummy prefix'],
  ['2001::1', 'Teredo (IETF protocol assignments)'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'deprecated ORCHID'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'segment routing'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'deprecated site-local'],
  ['ff02::1', 'multicast'],
  ['4000::1', 'unallocated, outside global unicast'],
  ['localhost', 'not an address'],
  ['', 'not an address'],
];

const PUBLIC: [string, string][] = [
  ['8.8.8.8', 'a public IPv4 address'],
  ['1.1.1.1', 'a public IPv4 address'],
  ['100.63.255.255', 'just below carrier-grade NAT'],
  ['100.128.0.0', 'just above carrier-grade NAT'],
  ['172.32.0.1', 'just above 172.16.0.0/12'],
  ['223.255.255.255', 'just below multicast'],
  ['2001:4860:4860::8888', 'a public IPv6 address'],
  ['[2606:4700:4700::1111]', 'a public IPv6 address, as a URL writes it'],
  ['2001:200::1', 'just above 2001::/23'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public address'],
  ['::808:808', 'IPv4-compatible public address'],
  ['64:ff9b::808:808', 'NAT64 of a public address'],
  ['2002:808:808::1', '6to4 of a public address'],
];

describe('isPrivateAddress', () => {
  it.each(PRIVATE)('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(PUBLIC)('allows %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('ipv6Groups', () => {
  it('reads every spelling of an address into its eight groups, and nothing else', () => {
    expect(ipv6Groups('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('2001:DB8::1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('fe80::1:2')).toEqual([0xfe80, 0, 0, 0, 0, 0, 1, 2]);
    for (const text of ['fe80::1%eth0', '::1]:80/#[', '1::2::3', '12345::', '127.0.0.1', ''])
      expect([text, ipv6Groups(text)]).toEqual([text, null]);
  });
});

/** A resolver answering what a hostile DNS would: every name resolves to `address`. */
const resolvingTo = (address: string) => async (): Promise<LookupAddress[]> => [{ address, family: 6 }];

describe('http_get to a name that resolves to an address carrying a private IPv4 address', () => {
  it.each(['::ffff:127.0.0.1', '::7f00:1', '::ffff:0:7f00:1', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::'])(
    'is refused as argument_rule:private_address when the name resolves to %s',
    async (address) => {
      const web = {
        ...publicWeb,
        checkHost: (url: URL, allowlist: readonly string[]) => checkPublicHost(url, allowlist, resolvingTo(address)),
      };
      const verdict = await verifyToolCall(
        call('1', 'http_get', { url: 'http://mirror.example.com/latest/meta-data/' }),
        verifyContext({}, { web }),
      );
      expect(verdict).toMatchObject({ verdict: 'denied', reason: 'argument_rule:private_address' });
    },
  );

  it('is allowed when the name resolves to an IPv4-mapped public address', async () => {
    expect(await checkPublicHost(new URL('http://mirror.example.com/'), [], resolvingTo('::ffff:8.8.8.8'))).toBeNull();
  });
});
