import { z } from 'zod';
import { EvidenceDocumentInvalid } from '../errors.js';
import { isRecord } from './document-text.js';
import { SARIF_LEVELS, SARIF_RULE_LIMIT, type SarifLevel, type SarifSummary } from './evidence-summary.js';
import { readWith } from './zod-loc.js';

const level = z.enum(SARIF_LEVELS);
const ruleSchema = z.looseObject({
  id: z.string(),
  defaultConfiguration: z.looseObject({ level: level.optional() }).optional(),
});
const componentSchema = z.looseObject({ name: z.string(), rules: z.array(ruleSchema).optional() });
const resultSchema = z.looseObject({
  ruleId: z.string().optional(),
  ruleIndex: z.number().int().min(-1).optional(),
  rule: z.looseObject({ id: z.string().optional(), index: z.number().int().min(-1).optional() }).optional(),
  level: level.optional(),
  kind: z.enum(['notApplicable', 'pass', 'fail', 'review', 'open', 'informational']).optional(),
  message: z.looseObject({}),
  suppressions: z.array(z.looseObject({ status: z.enum(['accepted', 'underReview', 'rejected']).optional() })).optional(),
  baselineState: z.enum(['new', 'unchanged', 'updated', 'absent']).optional(),
});
const runSchema = z.looseObject({
  tool: z.looseObject({ driver: componentSchema, extensions: z.array(componentSchema).optional() }),
  results: z.array(resultSchema).nullable().optional(),
});
const sarifSchema = z.looseObject({ version: z.literal('2.1.0'), runs: z.array(runSchema) });

type Run = z.output<typeof runSchema>;
type Result = z.output<typeof resultSchema>;

/** Rule ids and their default levels, from the driver and its extensions (CodeQL keeps rules in extensions). */
function ruleDefaults(run: Run): Map<string, SarifLevel | undefined> {
  const defaults = new Map<string, SarifLevel | undefined>();
  for (const component of [run.tool.driver, ...(run.tool.extensions ?? [])]) {
    for (const rule of component.rules ?? []) {
      if (!defaults.has(rule.id)) defaults.set(rule.id, rule.defaultConfiguration?.level);
    }
  }
  return defaults;
}

function ruleIdOf(result: Result, run: Run): string {
  const index = result.ruleIndex ?? result.rule?.index ?? -1;
  const id = result.ruleId ?? result.rule?.id ?? run.tool.driver.rules?.[index]?.id ?? '(no rule)';
  return id.length > 200 ? `${id.slice(0, 199)}…` : id;
}

/**
 * SARIF 2.1.0 §3.27.10: a result whose `kind` is other than `fail` has level `none`; otherwise its `level`, else
 * its rule's `defaultConfiguration.level`, else `warning`.
 */
function levelOf(result: Result, ruleId: string, defaults: Map<string, SarifLevel | undefined>): SarifLevel {
  if (result.kind !== undefined && result.kind !== 'fail') return 'none';
  return result.level ?? defaults.get(ruleId) ?? 'warning';
}

/** Suppressed: some suppression accepted (a missing status means accepted) and none under review or rejected. */
function isSuppressed(result: Result): boolean {
  const statuses = (result.suppressions ?? []).map((s) => s.status ?? 'accepted');
  return statuses.length > 0 && statuses.every((s) => s === 'accepted');
}

/**
 * A SARIF log (docs/release-gate.md, "Evidence read by content"): version 2.1.0 only. Results are counted by level
 * and by rule over every run; suppressed results and results a baseline marks `absent` (fixed) are not counted.
 */
export function parseSarif(value: unknown): SarifSummary {
  if (!isRecord(value)) throw new EvidenceDocumentInvalid([], 'A SARIF log is a JSON object.');
  if (value.version !== '2.1.0') {
    throw new EvidenceDocumentInvalid(
      ['version'],
      `Only SARIF 2.1.0 is read; this log says version ${JSON.stringify(value.version ?? null)}.`,
    );
  }
  const log = readWith(sarifSchema, value, 'SARIF 2.1.0 log');
  const byLevel: Record<SarifLevel, number> = { error: 0, warning: 0, note: 0, none: 0 };
  const byRule = new Map<string, { rule_id: string; level: SarifLevel; count: number }>();
  let suppressed = 0;
  let results = 0;
  for (const run of log.runs) {
    const defaults = ruleDefaults(run);
    for (const result of run.results ?? []) {
      if (result.baselineState === 'absent') continue;
      if (isSuppressed(result)) {
        suppressed += 1;
        continue;
      }
      const ruleId = ruleIdOf(result, run);
      const resultLevel = levelOf(result, ruleId, defaults);
      results += 1;
      byLevel[resultLevel] += 1;
      const key = `${ruleId}\u0000${resultLevel}`;
      const entry = byRule.get(key) ?? { rule_id: ruleId, level: resultLevel, count: 0 };
      entry.count += 1;
      byRule.set(key, entry);
    }
  }
  const rank = (l: SarifLevel) => SARIF_LEVELS.indexOf(l);
  const sorted = [...byRule.values()].sort(
    (a, b) => rank(a.level) - rank(b.level) || b.count - a.count || a.rule_id.localeCompare(b.rule_id),
  );
  return {
    format: 'sarif',
    results,
    by_level: byLevel,
    by_rule: sorted.slice(0, SARIF_RULE_LIMIT),
    truncated: sorted.length > SARIF_RULE_LIMIT,
    suppressed,
  };
}
