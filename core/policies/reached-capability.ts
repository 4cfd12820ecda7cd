import type { OverlapBudget } from '../glob-overlap.js';
import { firstMatchingRule, type RuleSubject, type ToolRule } from './tool-rules.js';

/** Characters a glob reads as syntax (core/linear-glob.ts): a capability's segment holds none (only a whole `*` segment is a wildcard). */
const GLOB_SYNTAX = /[*?[\]{}()\\!@+]/g;

type Reach = 'read' | 'write' | 'host';

/**
 * A file or network capability pattern (a policy's `forbidden` or `ask`) as the deny rules it is
 * (docs/agent-hooks.md, "How a call is decided"), so what a shell line reads, writes or reaches
 * meets it as it meets a `deny` rule: however spelt (loose-spelling.ts), as a glob or a host the line computes (`cat .e*`,
 * `curl $URL`), and a path outside the root anywhere in it. A file capability (`fs:read:.env`,
 * `fs:write:.github/*`, `fs:*:secrets/*`; core/policies/capability-matches.ts's segments: a whole
 * `*` segment is one name, a trailing one any suffix) is a path glob anchored at the repository
 * root; `network:HOST` the host, `network:*` any.
 */
function reachRules(pattern: string): { reach: Reach; rules: ToolRule[] }[] {
  const parts = pattern.split(/[:/]/);
  if (parts[0] === 'network' && parts.length === 2) {
    const glob = parts[1] === '*' ? '*' : parts[1].replace(GLOB_SYNTAX, '\\$&');
    return [{ reach: 'host', rules: [{ match: { host: glob }, verdict: 'deny' }] }];
  }
  const [kind, access, ...names] = parts;
  if ((kind !== 'fs' && kind !== '*') || access === undefined) return [];
  const open = names.at(-1) === '*' || (names.length === 0 && access === '*');
  const fixed = (open && names.length > 0 ? names.slice(0, -1) : names).filter((name) => name !== '');
  const base = fixed.map((name) => (name === '*' ? '*' : name.replace(GLOB_SYNTAX, '\\$&'))).join('/');
  const globs = open ? (base === '' ? ['/**'] : [`/${base}`, `/${base}/**`]) : base === '' ? [] : [`/${base}`];
  const accesses: readonly ('read' | 'write')[] =
    access === '*' ? ['read', 'write'] : access === 'read' || access === 'write' ? [access] : [];
  return accesses.map((a) => ({ reach: a, rules: globs.map((glob) => ({ match: { [a]: glob }, verdict: 'deny' as const })) }));
}

const NO_FACTS: Omit<RuleSubject, 'tool'> = { commands: [], simpleCommands: [], substitutes: false, reads: [], writes: [], hosts: [] };

/**
 * The first capability one of `patterns` (a policy's `forbidden` or `ask`) names among the paths a
 * call reads and writes (its `alsoRead` and `alsoWritten` too) and the hosts it reaches, as
 * `fs:<access>:<path>` or `network:<host>`, or null. Patterns naming no file or network capability cost nothing here.
 */
export function reachedCapability(patterns: readonly string[], subject: RuleSubject, budget?: OverlapBudget): string | null {
  const byReach: Record<Reach, ToolRule[]> = { read: [], write: [], host: [] };
  for (const pattern of patterns) for (const { reach, rules } of reachRules(pattern)) byReach[reach].push(...rules);
  const reached: [Reach, readonly string[], string][] = [
    ['read', subject.alsoRead?.length ? [...subject.reads, ...subject.alsoRead] : subject.reads, 'fs:read:'],
    ['write', subject.alsoWritten?.length ? [...subject.writes, ...subject.alsoWritten] : subject.writes, 'fs:write:'],
    ['host', subject.hosts, 'network:'],
  ];
  for (const [reach, values, capability] of reached) {
    const rules = byReach[reach];
    if (rules.length === 0 || values.length === 0) continue;
    const facts = (list: readonly string[]) => ({ ...NO_FACTS, tool: subject.tool, [reach === 'host' ? 'hosts' : `${reach}s`]: list });
    // All values at once first: a line naming thousands of paths is matched once when none is refused.
    if (!firstMatchingRule(rules, facts(values), budget)) continue;
    const value = values.find((v) => firstMatchingRule(rules, facts([v]), budget));
    if (value !== undefined) return `${capability}${value}`;
  }
  return null;
}
