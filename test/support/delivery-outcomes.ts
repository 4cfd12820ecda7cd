import type { TestApp } from './test-app.js';
import { deliver, examplePayload } from './github-deliveries.js';
import type { FakeGitHub } from '../fakes/fake-github-server.js';

/** A real `merge_group` checks_requested delivery naming pull request `number` of `repo` (the job reads it from GitHub). */
export function mergeGroupPayload(repo: string, number: number, headSha: string, installationId = 77) {
  const payload = examplePayload('merge_group', 'checks_requested', repo, installationId);
  const headRef = `refs/heads/gh-readonly-queue/main/pr-${number}-${'e'.repeat(40)}`;
  payload.merge_group = { ...payload.merge_group, head_sha: headSha, head_ref: headRef, base_ref: 'refs/heads/main' };
  return payload;
}

/** The delivery's row as the job left it (migration 033). */
export async function deliveryRow(t: TestApp, deliveryId: string) {
  const { rows } = await t.database.db.raw(
    'SELECT outcome, result, error, attempts, duplicates, started_at, finished_at FROM github_deliveries WHERE delivery_id = ?',
    [deliveryId],
  );
  return rows[0] as { outcome: string; result: string | null; error: string | null; attempts: number; duplicates: number } | undefined;
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Sends a merge_group delivery whose job cannot read its pull request (GitHub answers 500 every
 * time), and brings each retry forward (graphile-worker would wait seconds to minutes) until the
 * job used its every attempt. `afterFirst` runs once the first attempt has failed.
 */
export async function deliverFailingDelivery(
  t: TestApp,
  gh: FakeGitHub,
  options: { id: string; repo: string; number: number; secret: string; afterFirst?: () => Promise<void> },
) {
  gh.app.failNext('GET', new RegExp(`/pulls/${options.number}$`), { status: 500, body: { message: 'Server Error' } }, 100);
  const payload = mergeGroupPayload(options.repo, options.number, 'f'.repeat(40));
  const res = await deliver(t, 'merge_group', payload, { secret: options.secret, id: options.id });
  if (res.status !== 202) throw new Error(`delivery answered ${res.status}`);
  let first = true;
  await waitUntil(async () => {
    const row = await deliveryRow(t, options.id);
    if (row?.result === 'failed') return true;
    if (row && row.attempts > 0 && row.error) {
      if (first && options.afterFirst) await options.afterFirst();
      first = false;
      await t.database.db.raw(
        `UPDATE graphile_worker._private_jobs SET run_at = now()
        WHERE locked_at IS NULL AND payload->>'delivery_id' = ? AND run_at > now()`,
        [options.id],
      );
    }
    return false;
  }, `delivery ${options.id} to fail`);
}
