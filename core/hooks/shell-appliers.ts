import { parsed } from './shell-operands.js';
import type { ProgramAccess } from './program-access.js';

const PATCH_VALUED = new Set([
  '-p',
  '-i',
  '-o',
  '-d',
  '-D',
  '-F',
  '-B',
  '-Y',
  '-z',
  '-r',
  '-V',
  '-g',
  '--strip',
  '--input',
  '--output',
  '--directory',
  '--ifdef',
  '--fuzz',
  '--prefix',
  '--basename-prefix',
  '--suffix',
  '--reject-file',
  '--version-control',
  '--get',
  '--quoting-style',
  '--reject-format',
  '--read-only',
]);
const UNZIP_VALUED = new Set(['-d', '-P']);
/** unzip's modes that write nothing (list, test, pipe, zipinfo). */
const UNZIP_READ_ONLY = ['-l', '-t', '-v', '-p', '-z', '-Z'];

/**
 * What `patch` and `unzip` change (docs/agent-hooks.md, "Shell commands and files"): the files
 * their input names, which the line does not, so the directory they work in is written (`.`,
 * `patch -d DIR`, `unzip -d DIR`) and a `deny` or `ask` `write` glob holds for them as for
 * `rm -rf .`: an agent's own patch or archive would otherwise write `.github/workflows` past
 * `ask write .github/workflows/**` (`git apply` and `tar x` are read likewise in their modules).
 * `patch FILE` writes FILE alone and `-o FILE` only FILE; a dry run writes nothing.
 */
export const applyAccess: ProgramAccess = (program, args, access, join) => {
  if (program === 'unzip') {
    const words = parsed(args, UNZIP_VALUED);
    if (words.files[0] !== undefined) access.reads.push(words.files[0]);
    if (!words.has(...UNZIP_READ_ONLY)) access.writes.push(words.values('-d').at(-1) ?? '.');
    return;
  }
  const words = parsed(args, PATCH_VALUED);
  const [target, patchFile] = words.files;
  access.reads.push(...words.values('-i', '--input'), ...(patchFile === undefined ? [] : [patchFile]));
  if (words.has('--dry-run')) return;
  const output = words.values('-o', '--output');
  const dir = words.values('-d', '--directory').at(-1);
  const inDir = (path: string) => (dir === undefined || path.startsWith('/') ? path : join(dir, path));
  if (output.length > 0) access.writes.push(...output.map(inDir));
  else access.writes.push(target === undefined ? (dir ?? '.') : inDir(target));
};
