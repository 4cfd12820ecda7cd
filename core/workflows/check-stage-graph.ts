import type { StageRole } from '../policies/policy.js';

export interface StageLinks {
  id?: string;
  stage_role: StageRole;
  upstream_stage_ids?: string[];
}

export interface StageGraphIssue {
  /** Relative to the request body, e.g. `['stages', 3, 'upstream_stage_ids', 0]`. */
  path: (string | number)[];
  message: string;
}

/**
 * The rules that tie stages together: ids unique, upstream ids naming earlier stages, and a
 * release stage listing at least one upstream, every one a reviewer. Each violation points at
 * the field that breaks it.
 */
export function checkStageGraph(stages: readonly StageLinks[]): StageGraphIssue[] {
  const issues: StageGraphIssue[] = [];
  const firstAt = new Map<string, number>();
  stages.forEach((stage, i) => {
    if (stage.id === undefined) return;
    if (firstAt.has(stage.id))
      issues.push({ path: ['stages', i, 'id'], message: `Stage id '${stage.id}' is already used by stage ${firstAt.get(stage.id)}.` });
    else firstAt.set(stage.id, i);
  });
  stages.forEach((stage, i) => {
    const upstream = stage.upstream_stage_ids ?? [];
    const at = (j: number) => ['stages', i, 'upstream_stage_ids', j];
    upstream.forEach((id, j) => {
      const index = firstAt.get(id);
      if (upstream.indexOf(id) !== j) issues.push({ path: at(j), message: `Upstream stage '${id}' is listed twice.` });
      else if (index === undefined) issues.push({ path: at(j), message: `No stage has the id '${id}'.` });
      else if (index >= i) issues.push({ path: at(j), message: `Upstream stage '${id}' must be an earlier stage (it is stage ${index}).` });
      else if (stage.stage_role === 'release' && stages[index].stage_role !== 'reviewer')
        issues.push({
          path: at(j),
          message: `A release stage may only follow reviewer stages; '${id}' is a ${stages[index].stage_role} stage.`,
        });
    });
    if (stage.stage_role === 'release' && upstream.length === 0)
      issues.push({
        path: ['stages', i, 'upstream_stage_ids'],
        message: 'A release stage must list at least one upstream reviewer stage in upstream_stage_ids.',
      });
  });
  return issues;
}
