import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Gate } from '../../core/release/gate.js';
import { recordCheckRun, type CheckRunInput } from '../../core/release/record-evidence.js';
import type { TestApp, TestUser } from './test-app.js';

/** A deterministic 40-hex commit SHA per label. */
export function sha(label: string | number): string {
  return createHash('sha1').update(String(label)).digest('hex');
}

export async function putGate(t: TestApp, repo: string, gate: Partial<Gate>, user?: TestUser) {
  const res = await t.request
    .put(`/api/v1/releases/gates/${repo}`)
    .set((user ?? t.admin).auth)
    .send(gate);
  if (res.status !== 200 && res.status !== 201) throw new Error(`gate: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function upload(t: TestApp, body: Record<string, unknown>, user?: TestUser) {
  const res = await t.request
    .post('/api/v1/releases/evidence')
    .set((user ?? t.admin).auth)
    .send({ kind: 'scan', status: 'passed', produced_at: new Date().toISOString(), ...body });
  if (res.status !== 201) throw new Error(`evidence: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function checkRun(t: TestApp, input: Partial<CheckRunInput> & Pick<CheckRunInput, 'repo_root' | 'commit_sha' | 'name'>) {
  return recordCheckRun(t.deps.release.store, {
    status: 'completed',
    conclusion: 'success',
    completed_at: new Date().toISOString(),
    ...input,
  });
}

export async function decide(t: TestApp, repo: string, commit: string, user?: TestUser) {
  const res = await t.request
    .get('/api/v1/releases/decision')
    .set((user ?? t.admin).auth)
    .query({ repo_root: repo, commit_sha: commit });
  if (res.status !== 200) throw new Error(`decision: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function promote(t: TestApp, body: Record<string, unknown>, user?: TestUser) {
  return t.request
    .post('/api/v1/releases/promote')
    .set((user ?? t.admin).auth)
    .send(body);
}

export interface ExecutionFields {
  owner_id: string;
  repo_root: string;
  commit_sha: string;
  workflow_id?: string | null;
  stage_id?: string | null;
  stage_role?: string;
  status?: string;
  verdict?: string | null;
  upstream_execution_ids?: string[];
}

/** An execution row bound to a commit, as the executions engine would leave it. */
export async function insertExecution(db: Knex, fields: ExecutionFields): Promise<string> {
  const id = randomUUID();
  await db('executions').insert({
    id,
    task: 'test',
    policy_name: 'default',
    policy_version: 1,
    policy_digest: '0'.repeat(64),
    budget_cents: 1500,
    provider: 'openai',
    model: 'gpt-4o-mini',
    stage_role: 'worker',
    status: 'completed',
    verdict: 'compliant',
    ...fields,
    upstream_execution_ids: JSON.stringify(fields.upstream_execution_ids ?? []),
  });
  return id;
}

/** The reviewer's approved review artifact, which release admission requires. */
export async function approveReview(db: Knex, executionId: string, approved = true): Promise<void> {
  await db('artifacts').insert({
    execution_id: executionId,
    kind: 'review',
    name: 'review',
    content: 'ok',
    digest: '0'.repeat(64),
    approved_for_release: approved,
  });
}

/** A completed reviewer -> release workflow bound to the commit; returns its ids. */
export async function reviewedRelease(db: Knex, ownerId: string, repoRoot: string, commitSha: string) {
  const workflowId = randomUUID();
  const bound = { owner_id: ownerId, repo_root: repoRoot, commit_sha: commitSha, workflow_id: workflowId };
  const reviewer = await insertExecution(db, { ...bound, stage_id: 'review', stage_role: 'reviewer' });
  await approveReview(db, reviewer);
  const release = await insertExecution(db, { ...bound, stage_id: 'release', stage_role: 'release', upstream_execution_ids: [reviewer] });
  return { workflowId, reviewer, release };
}
