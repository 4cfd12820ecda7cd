import { randomUUID } from 'node:crypto';
import type { BoundWorkflow } from '../../../core/release/bound-workflow.js';
import type { CheckRun, CommitEvidence, UploadedEvidence } from '../../../core/release/evidence.js';
import { gateSchema, type Gate } from '../../../core/release/gate.js';

export const NOW = new Date('2025-06-01T12:00:00.000Z');
export const HOUR = 3600 * 1000;

export function hoursAgo(hours: number, from = NOW): string {
  return new Date(from.getTime() - hours * HOUR).toISOString();
}

export function gate(fields: Partial<Gate> = {}): Gate {
  return gateSchema.parse(fields);
}

export function check(name: string, fields: Partial<CheckRun> = {}): CheckRun {
  return { name, status: 'completed', conclusion: 'success', produced_at: hoursAgo(1), details_url: null, external_id: null, ...fields };
}

export function upload(name: string, fields: Partial<UploadedEvidence> = {}): UploadedEvidence {
  return { kind: 'scan', name, status: 'passed', digest: null, uri: null, produced_at: hoursAgo(1), ...fields };
}

export function evidence(checkRuns: CheckRun[] = [], uploads: UploadedEvidence[] = []): CommitEvidence {
  return { checkRuns, uploads };
}

/** A completed reviewed-release workflow: a compliant reviewer and an admitted release stage. */
export function reviewedWorkflow(fields: Partial<BoundWorkflow> = {}, ownerId = randomUUID()): BoundWorkflow {
  const stage = (stage_id: string, stage_role: string) => ({
    execution_id: randomUUID(),
    stage_id,
    stage_role,
    status: 'completed' as const,
    verdict: 'compliant' as const,
    certificate_valid: true,
  });
  return {
    workflow_id: randomUUID(),
    standalone: false,
    owner_id: ownerId,
    status: 'completed',
    executions: [stage('review', 'reviewer'), stage('release', 'release')],
    release: { admission: 'admitted', reasons: [] },
    ...fields,
  };
}
