import { parsed } from './shell-operands.js';
import { recursiveReads } from './shell-recursive-readers.js';
import type { ProgramAccess } from './program-access.js';

/** tar's options that take a value (GNU tar's and bsdtar's), letters of an old-style first word (`czf x.tgz`) as well. */
const TAR_VALUED = new Set([
  '-f',
  '-C',
  '-T',
  '-X',
  '-b',
  '-g',
  '-H',
  '-I',
  '-K',
  '-L',
  '-N',
  '-V',
  '-F',
  '--file',
  '--directory',
  '--files-from',
  '--exclude-from',
  '--exclude',
  '--listed-incremental',
  '--format',
  '--use-compress-program',
  '--blocking-factor',
  '--newer',
  '--label',
  '--transform',
  '--owner',
  '--group',
  '--mode',
  '--mtime',
]);
/** tar's modes that read the files it names into its archive. */
const TAR_ADDS = ['-c', '--create', '-r', '--append', '-u', '--update'];
const TAR_EXTRACTS = ['-x', '--extract', '--get'];
const ZIP_VALUED = new Set(['-b', '-n', '-t', '-P', '-Z', '-s', '--temp-path', '--suffixes', '--password', '--compression-method']);

/** tar's old-style first word (`czf x.tgz .`: letters without a dash, their values the words after it) as options. */
function modern(args: readonly string[]): string[] {
  if (args.length === 0 || args[0].startsWith('-')) return [...args];
  const out: string[] = [];
  let next = 1;
  for (const letter of args[0]) {
    out.push(`-${letter}`);
    if (TAR_VALUED.has(`-${letter}`) && next < args.length) out.push(args[next++]);
  }
  return [...out, ...args.slice(next)];
}

/**
 * What tar and zip read and write (docs/agent-hooks.md, "Shell commands and files"): packing
 * (`tar c`, `-r`, `-u`; zip) reads every file under the paths it names and writes its archive
 * (tar's `-f`, zip's first operand); tar's `-C DIR` moves where the paths after it are read from
 * (`tar -C config -czf x.tgz secrets` reads `config/secrets/**`); tar's other modes read their
 * archive, and extracting writes the directory it extracts into (`.`, or `-C DIR`).
 */
export const archiveAccess: ProgramAccess = (program, args, access, join) => {
  if (program === 'zip') {
    const words = parsed(args, ZIP_VALUED);
    const [archive, ...named] = words.files;
    const files = named.filter((f) => f !== '-');
    if (archive !== undefined && archive !== '-') access.writes.push(archive);
    access.reads.push(...(recursiveReads(program, words, files) ?? files));
    return;
  }
  const words = parsed(modern(args), TAR_VALUED);
  const archives = words.values('-f', '--file').filter((f) => f !== '-');
  if (!words.has(...TAR_ADDS)) {
    access.reads.push(...archives);
    // What it extracts is in the archive, not the line: the directory it extracts into is written (shell-appliers.ts).
    if (words.has(...TAR_EXTRACTS) && !words.has('-O', '--to-stdout')) access.writes.push(words.values('-C', '--directory').at(-1) ?? '.');
    return;
  }
  access.writes.push(...archives);
  let dir: string | undefined;
  let g = 0;
  words.files.forEach((file, at) => {
    for (; g < words.given.length && words.given[g].at <= at; g++) {
      const { name, value } = words.given[g];
      if (name === '-C' || name === '--directory') dir = dir === undefined || value.startsWith('/') ? value : join(dir, value);
    }
    const from = dir;
    const read = recursiveReads(program, words, [file]) ?? [file];
    access.reads.push(...read.map((path) => (from === undefined || path.startsWith('/') ? path : join(from, path))));
  });
  access.reads.push(...words.values('-T', '--files-from'));
};

/** 7-Zip's commands that put the files after the archive into it. */
const SEVEN_ZIP_ADDS = new Set(['a', 'u']);

/**
 * What 7-Zip (`7z`, `7za`, `7zz`, `7zr`) reads and writes: adding (`a`, `u`) reads every file
 * under the paths after the archive and writes the archive; extracting (`x`, `e`) reads the
 * archive and writes where `-oDIR` says (`.` without it); any other command reads the archive.
 * Its switches are single words (`-oDIR`, `-pSECRET`).
 */
export const sevenZipAccess: ProgramAccess = (_program, args, access) => {
  const words = parsed(args, new Set());
  const [command, archive, ...files] = words.files;
  if (archive === undefined) return;
  if (SEVEN_ZIP_ADDS.has(command)) {
    access.writes.push(archive);
    access.reads.push(...(recursiveReads('7z', words, files) ?? files));
    return;
  }
  access.reads.push(archive);
  const out = args.findLast((word) => word.startsWith('-o'));
  if (command === 'x' || command === 'e') access.writes.push(out === undefined || out === '-o' ? '.' : out.slice(2));
};
