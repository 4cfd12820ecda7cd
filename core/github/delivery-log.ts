import type { GitHubRejection } from './github-port.js';

/**
 * What became of each webhook delivery shipgate received (docs/github-app.md, "When the check
 * didn't show up"): the claim's verdict, then how the github_delivery job's work ended.
 *
 * - `queued`: claimed, its work not finished yet; after a failed attempt that will be retried it
 *   stays queued, with that attempt's error as `reason` and `attempts` counting.
 * - `processed`: the job finished.
 * - `failed`: the job's last attempt failed; `reason` is that error's message.
 * - `ignored`: nothing to do (the reason says why); no job ran.
 * - A receipt of an id already claimed changes nothing and counts in `duplicates`;
 *   `outcome=duplicate` lists the deliveries received more than once.
 */
export type DeliveryOutcomeName = 'queued' | 'processed' | 'failed' | 'ignored';

export interface DeliveryRecord {
  delivery_id: string;
  event: string;
  action: string | null;
  repo_root: string | null;
  installation_id: number | null;
  outcome: DeliveryOutcomeName;
  reason: string | null;
  received_at: string;
  /** The last attempt's start and end; null before the job ran (and for ignored deliveries). */
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  attempts: number;
  /** Receipts of the same id after the first (GitHub's redeliveries of a delivery shipgate had). */
  duplicates: number;
  last_duplicate_at: string | null;
  /** Redeliveries missed-delivery recovery asked GitHub for (0: GitHub's own first delivery arrived). */
  recovery_redeliveries: number;
  /** What GitHub refused when shipgate posted for this delivery, oldest first (docs/github-app.md, "When GitHub refuses a write"). */
  rejections: (GitHubRejection & { at: string })[];
}

export interface DeliveryListFilter {
  outcome?: DeliveryOutcomeName | 'duplicate';
  repo_root?: string;
}

/** The newest-first position after which a page starts: received_at (microseconds) and id. */
export interface DeliveryCursor {
  receivedAt: string;
  deliveryId: string;
}

export interface DeliveryLog {
  /** The job's attempt `attempt` (1-based) started at `startedAt` and finished the work. */
  recordProcessed(deliveryId: string, startedAt: Date, attempt: number): Promise<void>;
  /** The attempt failed with `reason`; `final`: no attempt is left (failed), else it will be retried (queued). */
  recordFailure(deliveryId: string, startedAt: Date, attempt: number, reason: string, final: boolean): Promise<void>;
  /** Newest first, `limit` of them after `after`; `next` when more exist. */
  list(
    filter: DeliveryListFilter,
    page: { limit: number; after?: DeliveryCursor },
  ): Promise<{ items: DeliveryRecord[]; next?: DeliveryCursor }>;
}

/** The longest reason kept: enough for GitHub's message, never a whole body. */
const REASON_MAX = 500;

/**
 * The reason a failed attempt shows: the error's first line of message, cut to 500 characters,
 * never its stack. Messages are written by shipgate's code and GitHub's answers (status and
 * message), which carry no credentials.
 */
export function deliveryFailureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'The job failed.';
  const line = message.split('\n')[0].trim() || (error instanceof Error ? error.name : 'The job failed.');
  return line.length > REASON_MAX ? `${line.slice(0, REASON_MAX - 1)}…` : line;
}
