import { filesUnder } from './files-under.js';
import { parsed } from './shell-operands.js';
import type { ProgramAccess } from './program-access.js';

/** A cloud storage URL or an rclone remote (`s3://b/k`, `gs://b`, `remote:path`): no local file. */
const REMOTE = /^(?:[a-z][a-z0-9+.-]*:\/\/|[\w-]+:)/i;

/** gh's commands that send files, with the operands before them that are no file (`release upload TAG FILES`). */
const GH_SENDS: Record<string, number> = { 'gist create': 0, 'gist edit': 1, 'release upload': 1, 'release create': 1 };
const GH_VALUED = new Set([
  '-f',
  '--env-file',
  '-F',
  '--field',
  '--body-file',
  '--input',
  '-d',
  '--desc',
  '-t',
  '--title',
  '-n',
  '--notes',
]);

/**
 * What programs that send files somewhere read (docs/agent-hooks.md, "Shell commands and files"),
 * and write when they fetch: `gh gist create FILES`, `gh release upload TAG FILES`, gh's
 * `--body-file`, `-f`/`--env-file` and `--input`; `aws s3 cp|mv|sync SRC DST`, `gsutil cp`,
 * `rclone copy|sync|move SRC DST` (the local side read, or written, whole for `sync`, rclone and
 * `--recursive`); `mail -A FILE`, `mutt -a
 * FILES`, `git send-email` is git's (shell-git-files.ts). A security probe sent `.env` out past
 * `read: .env*` with each.
 */
export const uploaderAccess: ProgramAccess = (program, args, access) => {
  if (program === 'gh') {
    const words = parsed(args, GH_VALUED);
    const [group, command, ...rest] = words.files;
    const skip = GH_SENDS[`${group} ${command}`];
    if (skip !== undefined) access.reads.push(...rest.slice(skip));
    access.reads.push(...words.values('-f', '--env-file', '--body-file', '--input').filter((file) => file !== '-'));
    access.reads.push(
      ...words.values('-F', '--field').flatMap((field) => (field.includes('=@') ? [field.slice(field.indexOf('=@') + 2)] : [])),
    );
    return;
  }
  if (program === 'mail' || program === 'mailx' || program === 'mutt') {
    const words = parsed(args, new Set(['-a', '-A', '-s', '-c', '-b', '-r', '-S', '--attach']));
    access.reads.push(...words.values('-a', '-A', '--attach'));
    return;
  }
  // aws s3 cp, gsutil cp, rclone copy: SRC then DST, each local or remote.
  const words = parsed(args, new Set(['--profile', '--region', '--exclude', '--include', '--acl', '--config', '-x']));
  const at = program === 'aws' ? (words.files[0] === 's3' ? 2 : -1) : 1;
  if (at < 0 || !['cp', 'mv', 'sync', 'copy', 'move', 'copyto', 'moveto', 'rsync'].includes(words.files[at - 1] ?? '')) return;
  const [source, target] = words.files.slice(at);
  // A directory is copied whole by `sync`, rclone, and `-r` / `--recursive`.
  const command = words.files[at - 1];
  const whole = command === 'sync' || program === 'rclone' || words.has('-r', '-R', '--recursive');
  if (source !== undefined && !REMOTE.test(source)) access.reads.push(source, ...(whole ? [filesUnder(source, true)] : []));
  if (target !== undefined && !REMOTE.test(target)) access.writes.push(target, ...(whole ? [filesUnder(target, true)] : []));
};

export const UPLOADERS = ['gh', 'aws', 'gsutil', 'rclone', 'mail', 'mailx', 'mutt'];
