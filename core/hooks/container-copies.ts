import type { FileAccessLists } from './program-access.js';
import { readOption } from './read-option.js';
import { trimSlashes } from './trim-slashes.js';

/** Programs with a `cp` subcommand between a container's files and the local ones. */
export const CONTAINER_COPIERS: ReadonlySet<string> = new Set(['docker', 'podman', 'kubectl', 'nerdctl']);
const VALUED: ReadonlySet<string> = new Set(['-c', '--container', '-n', '--namespace', '--context', '--kubeconfig', '--retries']);

/** A container's or pod's path: `NAME:PATH`, `NS/POD:PATH` (a colon before any slash). */
const inContainer = (word: string) => /^[^/:]+(?:\/[^/:]+)?:/.test(word);

/** A local source that may be a directory (`src`, `dist/`, `.`): not a name with an extension (`app.jar`) or a dotfile (`.env`). */
const mayBeDirectory = (path: string) => {
  const name = trimSlashes(path).split('/').pop() ?? '';
  return path.endsWith('/') || name === '' || name === '.' || name === '..' || !name.includes('.');
};

/**
 * `docker cp SRC DST` (podman's, nerdctl's, `kubectl cp`): the local side is read, what may be a
 * directory whole (`P/**`), or written (docs/agent-hooks.md, "Shell commands and files"). A security probe
 * wrote `.github/workflows/ci.yml` past `write: .github/workflows/**` with `docker cp c:/ci.yml
 * .github/workflows/`. Whether the words were a copy.
 */
export function containerCopyAccess(args: readonly string[], access: FileAccessLists): boolean {
  if (args[0] !== 'cp') return false;
  const operands: string[] = [];
  for (let i = 1; i < args.length;) {
    if (args[i].startsWith('-') && args[i] !== '-') i = readOption(args, i, VALUED).next;
    else operands.push(args[i++]);
  }
  const [source, target] = operands;
  if (source !== undefined && source !== '-' && !inContainer(source))
    access.reads.push(source, ...(mayBeDirectory(source) ? [`${trimSlashes(source)}/**`] : []));
  if (target !== undefined && target !== '-' && !inContainer(target)) access.writes.push(target);
  return true;
}
