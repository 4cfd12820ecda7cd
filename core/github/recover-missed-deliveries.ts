import type { GitHubAppStore } from './github-app-store.js';
import type { DeploymentStore } from './deployment-store.js';
import type { RecoveryGitHub, RecoveryStore, HookDelivery } from './recovery-port.js';
import { sweepOpenPullRequests, type SweepDeps } from './sweep-open-pull-requests.js';

export interface RecoveryDeps extends SweepDeps {
  github: RecoveryGitHub;
  recovery: RecoveryStore;
  app: GitHubAppStore;
  deployments: DeploymentStore;
  /** Who runs (the lease owner), e.g. the worker's id. */
  owner: string;
  now?: () => Date;
}

export interface RecoveryReport {
  ran: boolean;
  examined: number;
  redelivered: string[];
  swept: number;
}

/** A run holds the lease this long at most; a runner that died frees it after that. */
export const RECOVERY_LEASE_SECONDS = 15 * 60;
/** The first run (no high-water mark yet) looks back this far: GitHub redelivers only recent deliveries. */
const FIRST_LOOK_BACK_MS = 24 * 60 * 60 * 1000;
/** At most this many pages of 100 per run; the rest is looked at next time. */
const MAX_PAGES = 20;
/** A delivery that keeps failing is asked for again at most this many times. */
const MAX_REDELIVERIES = 3;

const succeeded = (d: HookDelivery) => d.status_code >= 200 && d.status_code < 300;

/**
 * An entry of GitHub's list shipgate can act on. One it cannot (a NUL in its guid, an id past what
 * is exact, no date) is skipped: it made every run fail while it was within the look-back.
 */
function usable(d: HookDelivery): boolean {
  return (
    Number.isSafeInteger(d.id) &&
    d.id > 0 &&
    typeof d.guid === 'string' &&
    /^[^\0]{1,200}$/.test(d.guid) &&
    Number.isInteger(d.status_code) &&
    !Number.isNaN(Date.parse(d.delivered_at))
  );
}

/** The deliveries newer than the high-water mark (or, the first time, than a day), newest first, and how many were skipped. */
async function newDeliveries(github: RecoveryGitHub, seen: number | null, now: Date): Promise<{ found: HookDelivery[]; skipped: number }> {
  const found: HookDelivery[] = [];
  let skipped = 0;
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { deliveries, next } = await github.listDeliveries(cursor);
    for (const delivery of deliveries) {
      if (!usable(delivery)) {
        skipped++;
        continue;
      }
      const old = seen === null ? now.getTime() - Date.parse(delivery.delivered_at) > FIRST_LOOK_BACK_MS : delivery.id <= seen;
      if (old) return { found, skipped };
      found.push(delivery);
    }
    if (!next) break;
    cursor = next;
  }
  return { found, skipped };
}

/**
 * Missed-delivery recovery, one runner at a time across replicas (a lease in the database):
 * lists the App's deliveries newer than the last run's high-water mark, asks GitHub to redeliver
 * each one that failed every attempt and that shipgate never claimed (at most 3 times per
 * delivery), sweeps the open pull requests for heads without shipgate's check run, and queues
 * again the review of deployments waiting without one. The mark moves once the
 * redeliveries are asked for, so a failed run looks at the same deliveries again.
 */
export async function recoverMissedDeliveries(deps: RecoveryDeps): Promise<RecoveryReport> {
  const now = deps.now?.() ?? new Date();
  const lease = await deps.recovery.acquireLease(deps.owner, RECOVERY_LEASE_SECONDS);
  if (!lease) return { ran: false, examined: 0, redelivered: [], swept: 0 };
  let newestSeen: number | null = lease.newest_delivery_seen;
  try {
    const { found: deliveries, skipped } = await newDeliveries(deps.github, lease.newest_delivery_seen, now);
    if (skipped > 0) deps.log('github_deliveries_unreadable', { skipped });
    const delivered = new Set(deliveries.filter(succeeded).map((d) => d.guid));
    // The newest failed attempt of each delivery no attempt of which succeeded.
    const failed = new Map<string, HookDelivery>();
    for (const d of deliveries) if (!delivered.has(d.guid) && !failed.has(d.guid)) failed.set(d.guid, d);
    const claimed = await deps.recovery.claimed([...failed.keys()]);
    const redelivered: string[] = [];
    for (const [guid, attempt] of failed) {
      if (claimed.has(guid)) continue;
      if ((await deps.recovery.countRedelivery(guid)) >= MAX_REDELIVERIES) continue;
      await deps.github.redeliver(attempt.id);
      redelivered.push(guid);
      await deps.pace();
    }
    if (redelivered.length > 0) deps.log('github_deliveries_redelivered', { count: redelivered.length, guids: redelivered });
    newestSeen = Math.max(newestSeen ?? 0, ...deliveries.map((d) => d.id)) || newestSeen;
    const swept = await sweepOpenPullRequests(deps);
    for (const request of await deps.deployments.orphaned(500)) await deps.deployments.scheduleReview(request.id);
    return { ran: true, examined: deliveries.length, redelivered, swept };
  } finally {
    await deps.recovery.releaseLease(deps.owner, newestSeen);
  }
}
