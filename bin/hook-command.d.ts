/** Types of bin/hook-command.js, which stays plain JavaScript so `shipgate hook` starts without tsx. */
export const HOOK_USAGE: string;
export function deniedReason(answer: unknown): string | null;
export function hookCommand(
  args: string[],
  io?: {
    stdin?: NodeJS.ReadableStream;
    stdout?: { write(text: string): unknown };
    stderr?: { write(text: string): unknown };
    env?: NodeJS.ProcessEnv;
  },
): Promise<number>;
