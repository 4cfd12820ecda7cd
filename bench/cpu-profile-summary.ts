/**
 * Where a server's CPU went, from a V8 profile (`BENCH_CPU_PROF=<dir>` writes one of the bench
 * server's process; docs/benchmarks.md). Prints the busy time after `--from <seconds>` (skip the
 * start-up and warm-up), then its self time by package or source file, and by "owner": the
 * innermost frame of shipgate's own code (api/, core/, db/, net/, server/, app/) on the sampled
 * stack, so the time spent inside a library or Node is charged to the shipgate code that called
 * it (a socket write under `sendSql` is a statement's). Samples are wall-clock: a sample inside a
 * syscall counts whether or not the kernel charges the process for it.
 *
 *   node bin/run-ts.js bench/cpu-profile-summary.ts <file.cpuprofile> [--from <seconds>] [--top <n>]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const OWN_CODE = /\/(api|core|db|net|server|app)\/[^/]+/;

/** `node_modules/<package>`, a `node:` module, shipgate's own file, or the native function's name. */
function placeOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1];
  if (url.startsWith('node:')) return url;
  const own = /\/((?:api|core|db|net|server|app|bench|worker)\/.+)$/.exec(url);
  return own ? own[1] : functionName || '(anonymous)';
}

function summarise(profile: Profile, fromSeconds: number): { busyMs: number; byPlace: Map<string, number>; byOwner: Map<string, number> } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const byPlace = new Map<string, number>();
  const byOwner = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let at = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    const us = profile.timeDeltas[i + 1] ?? 0;
    const node = nodes.get(id)!;
    if (at < fromSeconds * 1e6 || node.callFrame.functionName === '(idle)') return;
    busy += us;
    add(byPlace, placeOf(node), us);
    let owner: string | undefined;
    for (let up: number | undefined = id; up !== undefined && !owner; up = parentOf.get(up)) {
      const frame = nodes.get(up)!.callFrame;
      if (OWN_CODE.test(frame.url) && !frame.url.includes('node_modules'))
        owner = `${frame.functionName || '(anonymous)'} ${placeOf(nodes.get(up)!)}`;
    }
    add(byOwner, owner ?? `(no shipgate frame) ${placeOf(node)}`, us);
  });
  return { busyMs: busy / 1000, byPlace, byOwner };
}

function print(title: string, map: Map<string, number>, busyMs: number, top: number): void {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / 1000 / busyMs).toFixed(1).padStart(5)}%  ${key}`);
  }
}

const [file, ...flags] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bin/run-ts.js bench/cpu-profile-summary.ts <file.cpuprofile> [--from <seconds>] [--top <n>]');
  process.exit(2);
}
const flag = (name: string, fallback: number) => {
  const at = flags.indexOf(name);
  return at >= 0 ? Number(flags[at + 1]) : fallback;
};
const { busyMs, byPlace, byOwner } = summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, flag('--from', 0));
console.log(`busy (not idle) after ${flag('--from', 0)} s: ${busyMs.toFixed(0)} ms`);
print('self time by package or file', byPlace, busyMs, flag('--top', 30));
print('self time by owner (innermost shipgate frame on the stack)', byOwner, busyMs, flag('--top', 30));
