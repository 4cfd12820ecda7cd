import type { PullRequestHead } from './github-port.js';

/** One attempt at delivering a webhook, as the App's delivery list shows it. */
export interface HookDelivery {
  /** The attempt's id (increasing): what a redelivery is asked for by, and the high-water mark. */
  id: number;
  /** X-GitHub-Delivery: the same for every attempt at one delivery; what shipgate claims. */
  guid: string;
  status_code: number;
  redelivery: boolean;
  delivered_at: string;
  event: string;
}

export interface OpenPullRequest extends PullRequestHead {
  /** GitHub's updated_at: an older observation never moves a recorded head back. */
  updated_at: string;
}

/** What missed-delivery recovery needs from GitHub, as the App (JWT) and as its installations. */
export interface RecoveryGitHub {
  /** One page of the App's deliveries, newest first; `next` is the cursor of the following page. */
  listDeliveries(cursor: string | null): Promise<{ deliveries: HookDelivery[]; next: string | null }>;
  /** `POST /app/hook/deliveries/{id}/attempts`. */
  redeliver(deliveryId: number): Promise<void>;
  installations(): Promise<number[]>;
  /** `owner/repo` (lower case) of every repository the installation may access. */
  repositories(installationId: number): Promise<string[]>;
  openPullRequests(installationId: number, repoRoot: string): Promise<OpenPullRequest[]>;
  /** Whether the installation has used half of its rate limit (seen on its latest answer): the sweep stops there. */
  rateLimitLow(installationId: number): boolean;
}

/** The recovery job's own records: one runner at a time, how far it has looked, redeliveries asked for. */
export interface RecoveryStore {
  /** Takes the lease unless another runner holds an unexpired one; null: someone else is running. */
  acquireLease(owner: string, seconds: number): Promise<{ newest_delivery_seen: number | null } | null>;
  /** Gives the lease back, moving the high-water mark when the run got through (`newestSeen`). */
  releaseLease(owner: string, newestSeen: number | null): Promise<void>;
  /** The guids among `guids` shipgate has claimed (received). */
  claimed(guids: string[]): Promise<Set<string>>;
  /** Counts one more redelivery asked for `guid`; returns the count before. */
  countRedelivery(guid: string): Promise<number>;
  /** Queues the next run (one pending run at a time). */
  scheduleNext(runAt: Date): Promise<void>;
  /** Queues a run unless one is already pending (then its time is kept): what each worker does at start. */
  ensureScheduled(runAt: Date): Promise<void>;
}
