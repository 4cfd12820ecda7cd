import { toolAction } from '../../core/hooks/tool-action.js';
import { PROBE_ROOT, ruleIndex } from './support/probe-rules.js';

// docs/agent-hooks.md, "Shell commands and files": what an agent writes is read in time linear in
// its length. Each of these shapes held the event loop for seconds before its reader was rewritten.
const within = (ms: number, read: () => unknown) => {
  const started = performance.now();
  read();
  return performance.now() - started < ms;
};

it("reads a socat address's options in one pass (a pattern took 3.4 s on 100 KB)", () => {
  expect(within(1000, () => ruleIndex(`socat - EXEC:x${',a'.repeat(50_000)},=`))).toBe(true);
});

it('refuses nested quoted substitutions before reading the rest of the line again at each level', () => {
  const line = `echo ${'"$('.repeat(40_000)}`;
  let malformed: string | undefined;
  expect(within(1000, () => (malformed = toolAction('Bash', { command: line }, PROBE_ROOT).malformed))).toBe(true);
  expect(malformed).toMatch(/nests more than 8 command substitutions/);
});

it('reads a PowerShell line of blanks and newlines in time linear in it', () => {
  const line = `${'\n'.repeat(100_000)}$x${' \t'.repeat(60_000)}`;
  expect(within(1000, () => toolAction('powershell', { command: line }, PROBE_ROOT))).toBe(true);
});
