/**
 * How much of a command line is read (docs/agent-hooks.md, "Shell commands and files"): words and
 * operators, and simple commands, counted over the line and the `-c` scripts in it. Reading and
 * matching cost what a line holds: `a;` repeated to 256 KiB (131,040 simple commands) held the
 * event loop 300 ms a call, and ten such calls at once three seconds. A line holding more is
 * refused unread past the limit (ShellLineTooLong), as one over 256 KiB is. Here-documents' bodies
 * are scanned from their `<<` (here-documents.ts): 1 MiB of that in all, four lines' worth.
 */
export const SHELL_READ_LIMITS = { tokens: 8192, commands: 1024, hereDocumentChars: 1024 * 1024 } as const;

/** What is left of SHELL_READ_LIMITS while one line is read. */
export type ShellReadBudget = { tokens: number; commands: number; hereDocumentChars: number };

export const newShellReadBudget = (): ShellReadBudget => ({ ...SHELL_READ_LIMITS });

/** A command line holds more than SHELL_READ_LIMITS. */
export class ShellLineTooLong extends Error {
  override name = 'ShellLineTooLong';
  constructor() {
    super(
      `holds more than ${SHELL_READ_LIMITS.commands} simple commands, ${SHELL_READ_LIMITS.tokens} words and operators or ${SHELL_READ_LIMITS.hereDocumentChars / 1024} KiB of here-documents, which shipgate does not read`,
    );
  }
}
