import { readOption } from './read-option.js';

const ENV_FILE: ReadonlySet<string> = new Set(['--env-file']);

/**
 * Files any program reads when a word names them so, whichever the program (docs/agent-hooks.md,
 * "Shell commands and files"): `--env-file PATH` (docker, docker compose, podman, node, bun,
 * deno, uv, …: the file's variables go into what it runs), and a `file://` URL (curl, wget, git
 * and browsers fetch the file it names). A security probe read `.env` past `read: .env*` with
 * `node --env-file=.env app.js`, `docker run --env-file .env alpine env` and
 * `curl file:///work/acme-shop/.env`.
 */
export function filesAnyProgramReads(args: readonly string[]): string[] {
  const reads: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    const handed = handedFile(word, args[i + 1]);
    if (handed !== null) {
      reads.push(handed.path);
      i += handed.words - 1;
      continue;
    }
    if (word === '--env-file' || word.startsWith('--env-file=')) {
      const option = readOption(args, i, ENV_FILE);
      if (option.value) reads.push(option.value);
      i = option.next - 1;
      continue;
    }
    const url = /^file:(?:\/\/(?:localhost)?)?(\/[^?#]*)/i.exec(word);
    if (url) reads.push(decodedPath(url[1]));
  }
  return reads;
}

/** A URL's path with its `%XX` escapes read (`%2Eenv` is `.env`); as written when they do not decode. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** `--from-file=[KEY=]PATH`, `--from-env-file=PATH` (kubectl), `--secret id=X,src=PATH` (docker build). */
const FROM_FILE = /^--(?:from-file|from-env-file)=(?:[^=]*=)?(.+)$/;
/** A bind mount's source: `-v SRC:DST` / `--volume`, `--mount type=bind,source=SRC` (docker, podman). */
const LOCAL_SOURCE = /^[.~/$][^:]*$/;

/** The value a word gives one of `names` (`--name=value`), or the next word does (`--name value`), and the words taken. */
function optionValue(word: string, next: string | undefined, names: readonly string[]): { value: string; words: number } | null {
  const eq = word.indexOf('=');
  if (eq > 0 && names.includes(word.slice(0, eq))) return { value: word.slice(eq + 1), words: 1 };
  return names.includes(word) && next !== undefined ? { value: next, words: 2 } : null;
}

/**
 * A file a word (and the one after it) hands a program to read or send: a kubectl secret's or
 * config map's `--from-file`, docker's build secret, a bind mount of a local path (the container
 * reads it). A security probe put `.env` into a container, a cluster secret and an image past
 * `read: .env*` with each.
 */
function handedFile(word: string, next: string | undefined): { path: string; words: number } | null {
  const from = FROM_FILE.exec(word)?.[1];
  if (from !== undefined) return { path: from, words: 1 };
  const options = optionValue(word, next, ['--secret', '--mount']);
  const source = options && /(?:^|,)(?:src|source)=([^,]+)/.exec(options.value)?.[1];
  if (options && source) return { path: source, words: options.words };
  const volume = optionValue(word, next, ['-v', '--volume']);
  const local = volume?.value.includes(':') ? volume.value.slice(0, volume.value.indexOf(':')) : undefined;
  return volume && local !== undefined && LOCAL_SOURCE.test(local) ? { path: local, words: volume.words } : null;
}
