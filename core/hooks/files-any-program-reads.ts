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
