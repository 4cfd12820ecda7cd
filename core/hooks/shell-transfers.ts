import { URL_WITH_AUTHORITY } from './fetch-hosts.js';
import { parsed } from './shell-operands.js';
import type { ProgramAccess } from './program-access.js';

/** curl's options whose value sends a file's content when it starts with `@` (`-d @.env`). */
const DATA = ['-d', '--data', '--data-binary', '--data-ascii', '--json'];
/** curl's options that send it elsewhere than its URL's host (shell-hosts.ts). */
const CURL_ROUTES = ['--proxy', '--preproxy', '--connect-to', '--resolve'];
const CURL_SHORT = ['-A', '-b', '-C', '-e', '-E', '-F', '-H', '-m', '-P', '-Q', '-r', '-t', '-u', '-U', '-w', '-x', '-X', '-y', '-Y', '-z'];

/**
 * A downloader's options whose value is a file it writes, or reads to send it, and the others
 * that take a value: its short ones all, so a cluster (`-sSLo FILE`, `-HX-Y:z`) is read as it
 * reads it; a long one's value that is no file may be read as an operand, which names no file here.
 */
const transfer = (writes: string[], reads: string[], others: string[]) => ({
  writes,
  reads,
  valued: new Set([...writes, ...reads, ...others]),
});
export const TRANSFERS: Record<string, ReturnType<typeof transfer>> = {
  curl: transfer(
    ['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar'],
    ['-T', '--upload-file', '-K', '--config'],
    [...CURL_SHORT, ...DATA, '--output-dir', '--data-raw', '--data-urlencode', '--form', '--form-string', ...CURL_ROUTES],
  ),
  wget: transfer(
    ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '--save-cookies'],
    ['--post-file', '--body-file', '-i', '--input-file', '--load-cookies'],
    ['-B', '-t', '-T', '-w', '-Q', '-P', '-U', '-l', '-A', '-R', '-D', '-I', '-X', '-e', '--directory-prefix'],
  ),
};

/** The file a curl data or form value sends (`@.env`, `name@.env`, `name=@.env;type=x`, `name=<.env`), if any. */
function sentFile(name: string, value: string): string | undefined {
  if (DATA.includes(name)) return value.startsWith('@') ? value.slice(1) : undefined;
  const at = value.indexOf('@');
  const eq = value.indexOf('=');
  // `--data-urlencode` reads `name@file` unless an `=` before it makes the rest content.
  if (name === '--data-urlencode') return at >= 0 && (eq < 0 || eq > at) ? value.slice(at + 1) : undefined;
  if ((name !== '-F' && name !== '--form') || eq < 0 || (value[eq + 1] !== '@' && value[eq + 1] !== '<')) return undefined;
  const file = value.slice(eq + 2);
  const semicolon = file.indexOf(';');
  return semicolon < 0 ? file : file.slice(0, semicolon);
}

/** A URL's last name, as curl -O and wget name what they save (wget: `index.html` for none); `*` when the server names it. */
function nameOf(url: string, named: boolean, fallback: string): string {
  if (named) return '*';
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  const end = path.search(/[?#]/);
  const kept = end < 0 ? path : path.slice(0, end);
  return kept.slice(kept.lastIndexOf('/') + 1) || fallback;
}

/**
 * The files curl and wget save under the URL's own name: `curl -O URL` (`--remote-name`, or each
 * URL with `--remote-name-all`) in `--output-dir` or here, `wget URL` without `-O` in `-P DIR`
 * or here (a recursive one, anything under it; those `-i FILE` lists, any name); `-J` /
 * `--content-disposition` let the server name it (`*`). A security probe wrote a workflow with `wget -P .github/workflows URL`.
 */
function savedByName(program: string, words: ReturnType<typeof parsed>, join: (dir: string, path: string) => string): string[] {
  const urls = words.files.filter((word) => URL_WITH_AUTHORITY.test(word));
  const at = (dir: string | undefined, name: string) => (dir === undefined ? name : join(dir, name));
  if (program === 'curl') {
    if (!words.has('-O', '--remote-name', '--remote-name-all')) return [];
    const dir = words.values('--output-dir').at(-1);
    return urls.map((url) => at(dir, nameOf(url, words.has('-J', '--remote-header-name'), '*')));
  }
  if (words.has('-O', '--output-document')) return [];
  const dir = words.values('-P', '--directory-prefix').at(-1);
  if (words.has('-r', '--recursive', '-m', '--mirror')) return [at(dir, '**')];
  // The URLs `-i FILE` lists are not in the line: any name.
  const listed = words.has('-i', '--input-file') ? [at(dir, '*')] : [];
  return [...listed, ...urls.map((url) => at(dir, nameOf(url, words.has('--content-disposition'), 'index.html')))];
}

/**
 * What curl and wget read and write (docs/agent-hooks.md, "Shell commands and files"): the file
 * they save to (`curl -o FILE`, `--output-dir`, `wget -O FILE`), and the files they send
 * (`curl -T FILE`, `-d @FILE`, `-F name=@FILE`, `wget --post-file=FILE`): uploading `.env` reads
 * it. `-` is their standard input or output.
 */
export const transferAccess: ProgramAccess = (program, args, access, join) => {
  const spec = TRANSFERS[program];
  const words = parsed(args, spec.valued);
  const dir = words.values('--output-dir').at(-1);
  access.writes.push(...savedByName(program, words, join));
  for (const { name, value } of words.given) {
    const read = spec.reads.includes(name) ? value : program === 'curl' ? sentFile(name, value) : undefined;
    if (read !== undefined && read !== '' && read !== '-') access.reads.push(read);
    if (!spec.writes.includes(name) || value === '' || value === '-') continue;
    // curl's `--output-dir` holds the files `-o` names.
    const saved = dir !== undefined && (name === '-o' || name === '--output') && !value.startsWith('/');
    access.writes.push(saved ? join(dir, value) : value);
  }
};

/** HTTPie's (and xh's) options that take a value; `-o` / `--output` is the file it writes. */
const HTTPIE_VALUED = new Set([
  ...['-a', '--auth', '-A', '--auth-type', '-o', '--output', '--session', '--session-read-only', '--proxy', '--cert', '--cert-key'],
  ...['--verify', '--timeout', '--max-redirects', '-p', '--print', '--pretty', '-s', '--style', '--format-options', '--boundary'],
]);
/** A request item that sends a file: `@FILE` (the body), `name@FILE` (an upload), `name=@FILE` and `name:=@FILE` (embedded). */
const HTTPIE_SENT = /^(?:[^=:@\s]*(?:=|:=)?)@(.+)$/;

/**
 * What HTTPie (`http`, `https`) and xh read and write (docs/agent-hooks.md, "Shell commands and
 * files"): the files its request items send (`http POST x @.env`, `file@.env`, `k=@.env`), and
 * the file `-o` writes.
 */
export const httpieAccess: ProgramAccess = (_program, args, access) => {
  const words = parsed(args, HTTPIE_VALUED);
  for (const item of words.files) {
    const sent = HTTPIE_SENT.exec(item)?.[1];
    // `file@report.pdf;type=application/pdf`: the file is what precedes its type.
    const typed = sent?.indexOf(';type=') ?? -1;
    if (sent !== undefined) access.reads.push(typed < 0 ? sent : sent.slice(0, typed));
  }
  access.writes.push(...words.values('-o', '--output').filter((file) => file !== '-'));
};
