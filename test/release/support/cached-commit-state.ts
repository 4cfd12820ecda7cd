import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import pg from 'pg';
import { createSigner } from '../../../core/certificates/create-signer.js';
import { createVerifier } from '../../../core/certificates/create-verifier.js';
import { publicJwkOf } from '../../../core/certificates/public-jwk.js';
import { IN_TOTO_STATEMENT_TYPE } from '../../../core/certificates/types.js';
import { readCommitState, type CommitState } from '../../../core/release/read-commit-state.js';
import { createCachingVerifier } from '../../../core/release/caching-verifier.js';
import { COMMIT_STATE } from '../../../db/stores/release/commit-state.js';
import { createSnapshotStore } from '../../../db/stores/release/postgres-snapshot-store.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

/** Helpers of the decision cache's tests (one database per test file, shared by its tests). */
const key = generateKeyPairSync('ed25519').privateKey;
const signer = createSigner(key);
/** An execution certificate's envelope, signed with the readers' key. */
export const envelope = JSON.stringify(
  signer.sign({
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: 'x', digest: { sha256: '0'.repeat(64) } }],
    predicateType: 'p',
    predicate: {},
  }),
);
let database: TestDatabase;
let ownerId: string;

/**
 * A database of the file's own, with an owner for the commits it stores; the helpers below read and
 * change it as another replica would.
 */
export function useCacheDatabase(): { owner(): string; database(): TestDatabase } {
  beforeAll(async () => {
    database = await createTestDatabase();
    [{ id: ownerId }] = await database
      .db('users')
      .insert({ email: 'cache@example.com', name: 'c', role: 'OPERATOR', password_hash: 'x' })
      .returning('id');
  });
  afterAll(async () => {
    await database.drop();
  });
  return { owner: () => ownerId, database: () => database };
}

export const sql = (text: string, values: unknown[] = []) => database.db.raw(text, values as never);

/** A repository's commit with a gate, a check run, a snapshot and a reviewed-release workflow (reviewer approved, release admitted). */
export async function commitWithWorkflow() {
  const repo = `acme/${randomUUID()}`;
  const sha = randomUUID().replaceAll('-', '').padEnd(40, '0');
  const workflow = randomUUID();
  const [reviewer, release] = [randomUUID(), randomUUID()];
  await sql(`INSERT INTO gate_versions (repo_root, version, digest, gate, source) VALUES (?, 1, 'd1', '{}', 'api')`, [repo]);
  await sql(
    `INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, conclusion, produced_at)
    VALUES (?, ?, 'check_run', 'check_run', 'ci', 'completed', 'success', now())`,
    [repo, sha],
  );
  await sql(
    `INSERT INTO snapshots (repo_root, commit_sha, evidence_digest, decision, blockers, provenance) VALUES (?, ?, 'first', 'SHIP', '[]', '{}')`,
    [repo, sha],
  );
  await sql(`INSERT INTO workflows (id, owner_id, name, status, repo_root, commit_sha) VALUES (?, ?, 'w', 'completed', ?, ?)`, [
    workflow,
    ownerId,
    repo,
    sha,
  ]);
  for (const [id, role, upstream] of [
    [reviewer, 'reviewer', []],
    [release, 'release', [reviewer]],
  ] as const) {
    await sql(
      `INSERT INTO executions (id, owner_id, workflow_id, stage_id, task, status, verdict, policy_name, policy_version, policy_digest,
        stage_role, budget_cents, provider, model, upstream_execution_ids, repo_root, commit_sha)
      VALUES (?, ?, ?, ?, 't', 'completed', 'compliant', 'default', 1, 'x', ?, 100, 'openai', 'm', ?::jsonb, ?, ?)`,
      [id, ownerId, workflow, role, role, JSON.stringify(upstream), repo, sha],
    );
    await sql(
      `INSERT INTO certificates (id, execution_id, kind, theorem, plan_hash, prover, issued_at, digest, envelope)
      VALUES (?, ?, 'execution', 't', 'p', 'x', now(), 'd', ?::jsonb)`,
      [randomUUID(), id, envelope],
    );
    await sql(
      `INSERT INTO workflow_stages (workflow_id, position, stage_id, name, task, stage_role, policy_name, policy_version, policy_digest,
        budget_cents, provider, model, status, execution_id)
      VALUES (?, ?, ?, ?, 't', ?, 'default', 1, 'x', 100, 'openai', 'm', 'completed', ?)`,
      [workflow, role === 'reviewer' ? 0 : 1, role, role, role, id],
    );
  }
  await sql(
    `INSERT INTO artifacts (execution_id, seq, kind, name, content, digest, approved_for_release) VALUES (?, 1, 'review', 'review', 'ok', 'd', true)`,
    [reviewer],
  );
  return { repo, sha, workflow, reviewer, release };
}

/** Reads the commit's state on a reader of its own; says whether the whole state was read from the database. */
export function readerOf(repo: string, sha: string) {
  const ports = { store: createSnapshotStore(database.db, 10), cachingVerifier: createCachingVerifier(createVerifier([publicJwkOf(key)])) };
  return async (): Promise<{ state: CommitState; readFromDatabase: boolean }> => {
    const sent = jest.spyOn(pg.Client.prototype, 'query');
    try {
      const state = await readCommitState(ports, repo, sha);
      const names = sent.mock.calls.map(([config]) => (config as { name?: string }).name);
      return { state, readFromDatabase: names.includes(COMMIT_STATE.name) };
    } finally {
      sent.mockRestore();
    }
  };
}

/** Reads twice (the second from the cache), applies `change`, and returns the next read. */
export async function afterChange(c: { repo: string; sha: string }, change: () => Promise<unknown>) {
  const read = readerOf(c.repo, c.sha);
  const before = await read();
  expect(before.readFromDatabase).toBe(true);
  expect(await read()).toEqual({ state: before.state, readFromDatabase: false });
  await change();
  return { before: before.state, after: await read() };
}

export const executionOf = (state: CommitState, id: string) =>
  state.workflows.flatMap((w) => w.executions).find((e) => e.execution_id === id)!;
