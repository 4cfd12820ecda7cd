import { firstMatchingRule, type RuleSubject, type ToolRule } from './tool-rules.js';

/** Characters a glob reads as syntax (core/linear-glob.ts): a capability's segment holds none (only a whole `*` segment is a wildcard). */
const GLOB_SYNTAX = /[*?[\]{}()\\!@+]/g;

/**
 * A `forbidden` file capability (`fs:read:.env`, `fs:write:.github/*`, `fs:*:secrets/*`) as the
 * deny rules of a path glob it is (core/policies/capability-matches.ts's segments: a whole `*`
 * segment is one name, a trailing one any suffix), anchored at the repository root, so a path a
 * shell line reads or writes meets it as it meets a `deny` rule (docs/agent-hooks.md, "How a
 * call is decided"): however spelt (loose-spelling.ts), as a glob the line computes (`cat .e*`),
 * and tried anywhere in a path outside the root.
 */
function fileRules(pattern: string): { access: 'read' | 'write'; rules: ToolRule[] }[] {
  const parts = pattern.split(/[:/]/);
  if (parts.length === 1 && parts[0] === '*') parts.push('*');
  const [kind, access, ...names] = parts;
  if ((kind !== 'fs' && kind !== '*') || access === undefined) return [];
  const open = names.at(-1) === '*' || (names.length === 0 && access === '*');
  const fixed = (open && names.length > 0 ? names.slice(0, -1) : names).filter((name) => name !== '');
  const base = fixed.map((name) => (name === '*' ? '*' : name.replace(GLOB_SYNTAX, '\\$&'))).join('/');
  const globs = open ? (base === '' ? ['/**'] : [`/${base}`, `/${base}/**`]) : base === '' ? [] : [`/${base}`];
  const accesses: readonly ('read' | 'write')[] =
    access === '*' ? ['read', 'write'] : access === 'read' || access === 'write' ? [access] : [];
  return accesses.map((a) => ({ access: a, rules: globs.map((glob) => ({ match: { [a]: glob }, verdict: 'deny' as const })) }));
}

const NO_FACTS: Omit<RuleSubject, 'tool'> = { commands: [], simpleCommands: [], substitutes: false, reads: [], writes: [], hosts: [] };

/**
 * The first file capability a `forbidden` pattern refuses among the paths a call reads (its
 * `alsoRead` too) and writes, as `fs:<access>:<path>`, or null. Policies whose `forbidden`
 * names no file capability cost nothing here.
 */
export function forbiddenPathOf(forbidden: readonly string[], subject: RuleSubject): string | null {
  const byAccess = { read: [] as ToolRule[], write: [] as ToolRule[] };
  for (const pattern of forbidden) for (const { access, rules } of fileRules(pattern)) byAccess[access].push(...rules);
  const reads = subject.alsoRead?.length ? [...subject.reads, ...subject.alsoRead] : subject.reads;
  for (const [access, paths] of [
    ['read', reads],
    ['write', subject.writes],
  ] as const) {
    const rules = byAccess[access];
    if (rules.length === 0 || paths.length === 0) continue;
    const facts = (list: readonly string[]) => ({ ...NO_FACTS, tool: subject.tool, [`${access}s`]: list });
    // All paths at once first: a line naming thousands of them is matched once when none is refused.
    if (!firstMatchingRule(rules, facts(paths))) continue;
    const path = paths.find((p) => firstMatchingRule(rules, facts([p])));
    if (path !== undefined) return `fs:${access}:${path}`;
  }
  return null;
}
