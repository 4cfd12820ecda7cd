import { hostOf, URL_WITH_AUTHORITY } from './fetch-hosts.js';
import { SSH_VALUED } from './handed-scripts.js';
import { socketHosts } from './socket-hosts.js';
import { parsed } from './shell-operands.js';
import { NO_VALUED } from './shell-programs.js';
import { TRANSFERS } from './shell-transfers.js';
import { COMPUTED_TEXT } from './printed-text.js';
import { argumentsRun, programOf, type SimpleCommand } from './shell-words.js';

/** Where a word is cut into the pieces a URL is looked for in: blanks, quotes, brackets, `,`, `;`, `=`. */
const PIECES = /[\s'"`()<>,;=[\]{}]+/;
/** scp's and git's `[user@]host:path`. */
const SCP_LIKE = /^(?:[\w.+-]+@)?([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|\[[0-9a-fA-F:.]+\]):(?!\/\/)/;

/** Programs whose operands are hosts, with their options that take a value. */
const HOST_OPERANDS: Record<string, { valued: ReadonlySet<string>; all: boolean }> = {
  ssh: { valued: SSH_VALUED, all: false },
  nc: { valued: new Set(['-p', '-s', '-w', '-i', '-q', '-x', '-X', '-O', '-I', '-T', '-V', '-e', '-c']), all: false },
  telnet: { valued: new Set(['-b', '-e', '-l', '-n', '-X']), all: false },
  ping: { valued: new Set(['-c', '-i', '-I', '-s', '-t', '-W', '-w', '-p', '-Q', '-l', '-M']), all: true },
  dig: { valued: new Set(['-b', '-c', '-f', '-k', '-p', '-q', '-t', '-x', '-y']), all: true },
  nslookup: { valued: new Set(), all: false },
  host: { valued: new Set(['-c', '-N', '-R', '-t', '-W', '-m']), all: false },
  whois: { valued: new Set(['-h', '-p']), all: false },
  sftp: { valued: SSH_VALUED, all: false },
  mosh: { valued: new Set(['-p', '--port', '--ssh', '--server', '--predict']), all: false },
  ftp: { valued: new Set(), all: false },
  lftp: { valued: new Set(['-u', '-p', '-e', '-f', '-c']), all: false },
  nmap: { valued: new Set(['-p', '-e', '-iL', '-oN', '-oX', '-oG', '-oA', '--script', '-S', '-D']), all: true },
};
const ALIASES: Record<string, string> = { ncat: 'nc', netcat: 'nc', ping6: 'ping', traceroute: 'ping', mtr: 'ping', drill: 'dig' };
/** HTTP clients whose operands are URLs, a scheme optional (`curl api.example.com/x`). */
const HTTP_CLIENTS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'xhs', 'aria2c']);

const hostOfBare = (word: string) => hostOf(URL_WITH_AUTHORITY.test(word) ? word : `http://${word.replace(/^@/, '')}`);

/** The hosts one simple command names. */
function commandHosts(words: readonly string[]): string[] {
  const hosts: string[] = [];
  for (const word of words) {
    // A URL and `host:path` both hold a `:`.
    if (!word.includes(':')) continue;
    for (const piece of word.split(PIECES)) {
      if (URL_WITH_AUTHORITY.test(piece) && !/^file:/i.test(piece)) hosts.push(hostOf(piece));
      const scp = SCP_LIKE.exec(piece);
      if (scp) hosts.push(scp[1].replace(/^\[|\]$/g, ''));
    }
  }
  const run = programOf(words);
  const args = argumentsRun(run);
  const program = Object.hasOwn(ALIASES, run.program) ? ALIASES[run.program] : run.program;
  if (HTTP_CLIENTS.has(program)) {
    const words = parsed(args, Object.hasOwn(TRANSFERS, program) ? TRANSFERS[program].valued : NO_VALUED);
    const bare = words.files.filter((file) => !URL_WITH_AUTHORITY.test(file));
    hosts.push(...bare.filter((file) => /^[\w.-]+\.[A-Za-z]{2,}(?::\d+)?(?:\/|$)|^localhost\b/.test(file)).map(hostOfBare));
    // A URL the line computes (`curl $URL`, `"${BASE}/api"`) or reads from a file (`wget -i`, `curl -K`) is any host's.
    const computed = bare.some((file) => file.split('/')[0].includes(COMPUTED_TEXT));
    const listed = program === 'curl' ? words.has('-K', '--config') : words.has('-i', '--input-file');
    if (computed || listed) hosts.push(COMPUTED_TEXT);
    // curl's proxy, and the hosts `--connect-to` and `--resolve` send it to instead.
    if (program === 'curl') {
      hosts.push(...words.values('-x', '--proxy', '--preproxy').map(hostOfBare));
      for (const value of words.values('--connect-to', '--resolve')) {
        const target = value.split(':')[2];
        if (target) hosts.push(target);
      }
    }
  } else if (Object.hasOwn(HOST_OPERANDS, program)) {
    const spec = HOST_OPERANDS[program];
    const words = parsed(args, spec.valued);
    const operands = words.files.filter((file) => !file.startsWith('+'));
    hosts.push(
      ...(spec.all ? operands : operands.slice(0, 1)).map(hostOfBare),
      ...words.values('-J').flatMap((j) => j.split(',').map(hostOfBare)),
    );
  } else if (program === 'openssl') {
    for (let i = 0; i + 1 < args.length; i++) if (args[i] === '-connect') hosts.push(hostOfBare(args[i + 1]));
  }
  return hosts;
}

/**
 * The hosts a shell line reaches as far as its words say (docs/agent-hooks.md, "Shell commands
 * and files"): every URL in any word (`curl`, `git clone`, a string in `python3 -c`), `[user@]host:path`
 * (`scp`, `rsync`, `git`), an HTTP client's operands without a scheme (`curl api.example.com`),
 * curl's `-x`, `--connect-to` and `--resolve` targets, and the host operands of `ssh` (and
 * `-J`), `sftp`, `mosh`, `ftp`, `lftp`, `nmap`, `nc`, `telnet`, `ping`, `dig`, `nslookup`, `host`,
 * `whois`, `openssl s_client -connect`, and sockets (socket-hosts.ts: `/dev/tcp/HOST/PORT`, socat,
 * a database client's `-h HOST`).
 * A URL an HTTP client is given computed or in a file is any host (`$`). Matched by `host` rules;
 * defence in depth, NOT a guarantee: a host a program computes or reads from elsewhere is not seen. A security probe reached `*.internal.example.com`
 * with `curl` past `deny host *.internal.example.com`, which only Claude's WebFetch met.
 */
export function shellHosts(commands: readonly SimpleCommand[]): string[] {
  const hosts = commands.flatMap((command) => {
    const run = programOf(command.words);
    const paths = [...command.words, ...command.redirections.map((r) => r.target)];
    return [...commandHosts(command.words), ...socketHosts(run.program, argumentsRun(run), paths)];
  });
  return [...new Set(hosts.map((host) => host.toLowerCase()))].filter(Boolean);
}
