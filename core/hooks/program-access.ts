/** The files a command reads and writes, as its words name them. */
export interface FileAccessLists {
  reads: string[];
  writes: string[];
}

/**
 * What one program's words read and write, by a module of its own (shell-file-access.ts's
 * OWN_ACCESS: archivers, downloaders, git, in-place script editors, patch appliers); `join` puts
 * a path in a directory, within what shell-file-access.ts records.
 */
export type ProgramAccess = (
  program: string,
  args: readonly string[],
  access: FileAccessLists,
  join: (dir: string, path: string) => string,
) => void;
