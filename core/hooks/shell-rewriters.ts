import { parsed } from './shell-operands.js';
import type { ProgramAccess } from './program-access.js';

/** Compressors and decompressors, with the suffix each adds or strips. */
const COMPRESSORS: Record<string, string> = {
  ...{ gzip: '.gz', gunzip: '.gz', bzip2: '.bz2', bunzip2: '.bz2', xz: '.xz', unxz: '.xz', lzma: '.lzma', unlzma: '.lzma' },
  ...{ zstd: '.zst', unzstd: '.zst', lz4: '.lz4', unlz4: '.lz4', compress: '.Z', uncompress: '.Z', brotli: '.br' },
};
export const COMPRESSOR_NAMES = Object.keys(COMPRESSORS);
const COMPRESSOR_VALUED = new Set(['-S', '--suffix', '-o', '--output', '-T', '--threads', '-b', '-B', '-L', '--level']);
/** Their options that write to standard output, or only test or list. */
const NO_FILE_WRITTEN = ['-c', '--stdout', '--to-stdout', '-t', '--test', '-l', '--list'];

/**
 * What a compressor reads and writes (docs/agent-hooks.md, "Shell commands and files"): it reads
 * its files and, unless it writes to standard output, replaces each with its other form beside it
 * (`gunzip .github/workflows/ci.yml.gz` writes `.github/workflows/ci.yml`; `gzip ci.yml` removes
 * it); `-o FILE` writes FILE. A security probe wrote a workflow past an `ask` rule on writes with
 * `gunzip`.
 */
export const compressorAccess: ProgramAccess = (program, args, access) => {
  const words = parsed(args, COMPRESSOR_VALUED);
  const files = words.files.filter((file) => file !== '-');
  access.reads.push(...files);
  access.writes.push(...words.values('-o', '--output'));
  if (words.has(...NO_FILE_WRITTEN)) return;
  const suffix = words.values('-S', '--suffix').at(-1) ?? COMPRESSORS[program];
  for (const file of files) access.writes.push(file, file.endsWith(suffix) ? file.slice(0, -suffix.length) : `${file}${suffix}`);
};

/**
 * `split FILE PREFIX` and `csplit -f PREFIX FILE …` write the pieces `PREFIX*` (`x*`, `xx*` by
 * default, where the line runs) and read FILE.
 */
export const splitAccess: ProgramAccess = (program, args, access) => {
  const valued = new Set(['-a', '-b', '-C', '-l', '-n', '-t', '-f', '--prefix', '--suffix-length', '--bytes', '--lines']);
  const words = parsed(args, valued);
  const [file, second] = words.files;
  if (file !== undefined && file !== '-') access.reads.push(file);
  const prefix = program === 'split' ? (second ?? 'x') : (words.values('-f', '--prefix').at(-1) ?? 'xx');
  access.writes.push(`${prefix}*`);
};

/** `script [FILE]` writes the session's log to FILE (`typescript` without one). */
export const scriptLogAccess: ProgramAccess = (_program, args, access) => {
  const words = parsed(args, new Set(['-E', '-I', '-O', '-B', '-T', '-m', '--echo', '--log-in', '--log-out', '--log-io', '--log-timing']));
  access.writes.push(
    words.files[0] ?? 'typescript',
    ...words.values('-I', '-O', '-B', '-T', '--log-in', '--log-out', '--log-io', '--log-timing'),
  );
};

/** `rename EXPR FILES…` gives each file a name the line does not hold: the file and its directory's every name are written. */
export const renameAccess: ProgramAccess = (_program, args, access) => {
  for (const file of parsed(args, new Set()).files.slice(1)) {
    const slash = file.lastIndexOf('/');
    access.reads.push(file);
    access.writes.push(file, slash < 0 ? '*' : `${file.slice(0, slash)}/*`);
  }
};

/** `sqlite3 DB …` opens its database to read and write; `ssh-keygen -f FILE` writes FILE and FILE.pub. */
export const keyAndDatabaseAccess: ProgramAccess = (program, args, access) => {
  const files =
    program === 'sqlite3'
      ? args.filter((word) => !word.startsWith('-')).slice(0, 1)
      : parsed(args, new Set(['-f', '-t', '-b', '-C', '-N', '-P', '-I', '-n', '-V', '-Z', '-a', '-m', '-O'])).values('-f');
  for (const file of files) {
    access.reads.push(file);
    access.writes.push(file, ...(program === 'sqlite3' ? [] : [`${file}.pub`]));
  }
};
