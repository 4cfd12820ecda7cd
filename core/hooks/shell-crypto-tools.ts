import type { ProgramAccess } from './program-access.js';
import { parsed } from './shell-operands.js';

/** openssl's options whose value is a file it reads, and the one it writes. */
const OPENSSL_READS = new Set(['-in', '-inkey', '-key', '-signkey', '-kfile', '-CAfile', '-cert', '-certfile', '-prvkey', '-sigfile']);
/** A password option's value that reads a file: `-pass file:.env`. */
const OPENSSL_PASSWORDS = new Set(['-pass', '-passin', '-passout']);
/** gpg's options that take a value, the file it writes, and those whose value is a file it reads. */
const GPG_VALUED = new Set([
  ...['-o', '--output', '-r', '--recipient', '-u', '--local-user', '--homedir', '--passphrase', '--passphrase-fd'],
  ...['--passphrase-file', '--cipher-algo', '--digest-algo', '--compress-algo', '-z', '--default-key', '--trust-model'],
]);

/**
 * What openssl and gpg read and write (docs/agent-hooks.md, "Shell commands and files"): openssl
 * its `-in`, `-inkey`, … files and `-pass file:PATH`, writing `-out`; gpg its operands and
 * `--passphrase-file`, writing `-o`. A security probe read `.env` with
 * `openssl enc -base64 -in .env`, past `read: .env*`.
 */
export const cryptoToolAccess: ProgramAccess = (program, args, access) => {
  if (program === 'gpg' || program === 'gpg2') {
    const words = parsed(args, GPG_VALUED);
    access.reads.push(...words.files.filter((file) => file !== '-'), ...words.values('--passphrase-file'));
    access.writes.push(...words.values('-o', '--output').filter((file) => file !== '-'));
    return;
  }
  for (let i = 0; i + 1 < args.length; i++) {
    const [option, value] = [args[i], args[i + 1]];
    if (OPENSSL_READS.has(option)) access.reads.push(value);
    else if (option === '-out') access.writes.push(value);
    else if (OPENSSL_PASSWORDS.has(option) && value.startsWith('file:')) access.reads.push(value.slice(5));
  }
};
