import { BlockList, isIP } from 'node:net';
import type Koa from 'koa';
import type { Config } from '../../core/config.js';

/** 1.2.3.4 rather than ::ffff:1.2.3.4 (how a dual-stack socket reports IPv4 peers). */
function plain(address: string): string {
  const trimmed = address.trim();
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(trimmed) ? trimmed.slice(7) : trimmed;
}

function blockListOf(proxies: string[]): BlockList {
  const list = new BlockList();
  for (const entry of proxies) {
    const [address, prefix] = entry.split('/');
    const type = isIP(plain(address)) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(plain(address), type);
    else list.addSubnet(plain(address), Number(prefix), type);
  }
  return list;
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy, in which case
 * X-Forwarded-For is walked from the right (each proxy appends the address it saw) past every
 * trusted hop. Entries a client wrote itself sit further left and are never reached unless every
 * proxy after them is trusted.
 */
export function clientAddressOf(peer: string, forwardedFor: string, trust: Config['trustProxy']): string {
  const chain = [plain(peer), ...forwardedFor.split(',').map(plain).filter(Boolean).reverse()];
  if (!trust) return chain[0];
  if ('hops' in trust) return chain[Math.min(trust.hops, chain.length - 1)];
  const trusted = blockListOf(trust.proxies);
  for (let i = 0; i < chain.length; i++) {
    const family = isIP(chain[i]);
    if (!family) return chain[Math.max(0, i - 1)]; // garbage after trusted hops: the last address we can vouch for
    if (!trusted.check(chain[i], family === 6 ? 'ipv6' : 'ipv4')) return chain[i];
  }
  return chain[chain.length - 1];
}

/** Sets ctx.ip (used by rate limits, the login throttle and the request log) per SHIPGATE_TRUST_PROXY. */
export function clientAddress(trust: Config['trustProxy']): Koa.Middleware {
  return async (ctx, next) => {
    ctx.request.ip = clientAddressOf(ctx.req.socket.remoteAddress ?? '', ctx.get('X-Forwarded-For'), trust);
    await next();
  };
}
