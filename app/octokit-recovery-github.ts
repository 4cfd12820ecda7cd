import type { RecoveryGitHub } from '../core/github/recovery-port.js';
import { normalizeRepoRoot, parseRepoRoot } from '../core/release/github-identifiers.js';
import type { GitHubAppClient } from './github-access.js';
import { asRetryable } from './github-errors.js';

type Headers = Record<string, string | number | undefined>;

async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw asRetryable(error);
  }
}

/**
 * The `cursor` of the Link header's next page (the deliveries list pages by cursor, not by number).
 * A URL in a Link header holds no `<`, so a `<` ends the search for its `>` (linear; docs/operations.md,
 * "Regular expressions").
 */
export function nextCursor(link: string | number | undefined): string | null {
  const next = /<([^<>]+)>;\s*rel="next"/.exec(String(link ?? ''))?.[1];
  return next ? new URL(next).searchParams.get('cursor') : null;
}

/** Missed-delivery recovery's GitHub calls: deliveries as the App (JWT), the sweep as each installation. */
export function octokitRecoveryGitHub(client: GitHubAppClient): RecoveryGitHub {
  const low = new Map<number, boolean>();
  const note = (installationId: number, headers: Headers) => {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const limit = Number(headers['x-ratelimit-limit']);
    if (Number.isFinite(remaining) && Number.isFinite(limit) && limit > 0) low.set(installationId, remaining < limit / 2);
  };
  return {
    async listDeliveries(cursor) {
      const octokit = await client.asApp();
      const { data, headers } = await call(() =>
        octokit.request('GET /app/hook/deliveries', { per_page: 100, ...(cursor ? { cursor } : {}) }),
      );
      return {
        deliveries: data.map((d) => ({
          id: Number(d.id),
          guid: d.guid,
          status_code: d.status_code,
          redelivery: d.redelivery,
          delivered_at: d.delivered_at,
          event: d.event,
        })),
        next: nextCursor(headers.link),
      };
    },
    async redeliver(deliveryId) {
      const octokit = await client.asApp();
      await call(() => octokit.request('POST /app/hook/deliveries/{delivery_id}/attempts', { delivery_id: deliveryId }));
    },
    async installations() {
      const octokit = await client.asApp();
      const all = await call(() => octokit.paginate(octokit.rest.apps.listInstallations, { per_page: 100 }));
      return all.map((i) => i.id);
    },
    async repositories(installationId) {
      const octokit = await client.asInstallation(installationId);
      const names: string[] = [];
      await call(async () => {
        for await (const page of octokit.paginate.iterator(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 })) {
          note(installationId, page.headers as Headers);
          for (const repo of page.data) {
            const root = normalizeRepoRoot(repo.full_name);
            if (root) names.push(root);
          }
        }
      });
      return names;
    },
    async openPullRequests(installationId, repoRoot) {
      const octokit = await client.asInstallation(installationId);
      const found: Awaited<ReturnType<RecoveryGitHub['openPullRequests']>> = [];
      await call(async () => {
        for await (const page of octokit.paginate.iterator(octokit.rest.pulls.list, {
          ...parseRepoRoot(repoRoot),
          state: 'open',
          per_page: 100,
        })) {
          note(installationId, page.headers as Headers);
          for (const pr of page.data) {
            found.push({
              number: pr.number,
              head_sha: pr.head.sha.toLowerCase(),
              head_ref: pr.head.ref,
              base_ref: pr.base.ref,
              state: 'open',
              updated_at: pr.updated_at,
            });
          }
        }
      });
      return found;
    },
    rateLimitLow: (installationId) => low.get(installationId) ?? false,
  };
}
