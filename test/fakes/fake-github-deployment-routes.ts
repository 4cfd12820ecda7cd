import type { FakeGitHubApp } from './fake-github-app-routes.js';
import { pullRequestSimpleJson } from './fake-github-pull-shapes.js';
import { installationJson, repositoryJson } from './fake-github-shapes.js';
import { gitHubError, type GitHubReply, type GitHubRoute, type GitHubRouteContext } from './fake-github-route.js';

/** One attempt at delivering a webhook, as `GET /app/hook/deliveries` lists it. */
export interface FakeHookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

export interface FakeDeploymentReview {
  repo: string;
  run_id: number;
  environment_name: string;
  state: 'approved' | 'rejected';
  comment: string;
  /** The token it was sent with (an installation token, as GitHub requires). */
  token: string | undefined;
}

/**
 * GitHub's custom deployment protection rule callback: records each review. A second answer to
 * the same run and environment is refused as GitHub refuses it (the rule is no longer pending).
 */
export class FakeGitHubDeployments {
  reviews: FakeDeploymentReview[] = [];
  /** The App's webhook deliveries, in the order they happened (listed newest first). */
  deliveries: FakeHookDelivery[] = [];
  /** Ids of the deliveries a redelivery was asked for, in order. */
  redeliveryRequests: number[] = [];
  /** Cursors `GET /app/hook/deliveries` was called with (null: the first page). */
  deliveryListCursors: (string | null)[] = [];
  /** Performs a redelivery (e.g. sends it to the server under test); its status code is recorded as a new attempt. */
  onRedeliver: ((delivery: FakeHookDelivery) => Promise<number>) | undefined;
  private nextDeliveryId = 70_000;

  /** A delivery attempt GitHub made (status_code 0: timed out). */
  addDelivery(fields: Partial<FakeHookDelivery> & { guid: string; status_code: number }): FakeHookDelivery {
    const ok = fields.status_code >= 200 && fields.status_code < 300;
    const delivery: FakeHookDelivery = {
      id: this.nextDeliveryId++,
      delivered_at: new Date().toISOString(),
      redelivery: false,
      duration: 0.1,
      status: ok ? 'OK' : fields.status_code === 0 ? 'timed out' : 'Invalid HTTP Response: ' + fields.status_code,
      event: 'pull_request',
      action: 'opened',
      installation_id: 77,
      repository_id: 1,
      ...fields,
    };
    this.deliveries.push(delivery);
    return delivery;
  }

  reviewsOf(repo: string, runId: number): FakeDeploymentReview[] {
    return this.reviews.filter((r) => r.repo === repo.toLowerCase() && r.run_id === runId);
  }

  routes(app: FakeGitHubApp, apiBase: () => string): GitHubRoute[] {
    const repoOf = (ctx: GitHubRouteContext) => `${ctx.params.owner}/${ctx.params.repo}`.toLowerCase();
    /** Page-numbered lists with GitHub's Link header. */
    const paged = <T>(ctx: GitHubRouteContext, path: string, all: T[], wrap: (items: T[]) => unknown): GitHubReply => {
      const perPage = Math.min(Number(ctx.query.get('per_page') ?? 30), 100);
      const page = Number(ctx.query.get('page') ?? 1);
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const url = (p: number) => `${apiBase()}${path}${path.includes('?') ? '&' : '?'}per_page=${perPage}&page=${p}`;
      const link = page < last ? `<${url(page + 1)}>; rel="next", <${url(last)}>; rel="last"` : undefined;
      const headers: Record<string, string> = link ? { link } : {};
      return { body: wrap(all.slice((page - 1) * perPage, page * perPage)), headers };
    };
    const installationOf = (ctx: GitHubRouteContext) => Number(/ghs_installation_(\d+)/.exec(ctx.headers.authorization ?? '')?.[1]);
    return [
      {
        method: 'GET',
        pattern: '/app/hook/deliveries',
        handle: (ctx) => {
          const cursor = ctx.query.get('cursor');
          this.deliveryListCursors.push(cursor);
          const perPage = Math.min(Number(ctx.query.get('per_page') ?? 30), 100);
          const newestFirst = [...this.deliveries].reverse();
          const start = cursor ? newestFirst.findIndex((d) => d.id < Number(cursor)) : 0;
          const items = start < 0 ? [] : newestFirst.slice(start, start + perPage);
          const more = start >= 0 && start + perPage < newestFirst.length;
          const next = `${apiBase()}/app/hook/deliveries?per_page=${perPage}&cursor=${items[items.length - 1]?.id}`;
          const headers: Record<string, string> = more ? { link: `<${next}>; rel="next"` } : {};
          return { body: items, headers };
        },
      },
      {
        method: 'POST',
        pattern: '/app/hook/deliveries/{id}/attempts',
        handle: async (ctx) => {
          const original = this.deliveries.find((d) => d.id === Number(ctx.params.id));
          if (!original) return gitHubError(404, 'Not Found');
          this.redeliveryRequests.push(original.id);
          const status = this.onRedeliver ? await this.onRedeliver(original) : 202;
          const { id: _original, ...same } = original;
          this.addDelivery({ ...same, redelivery: true, status_code: status, delivered_at: new Date().toISOString() });
          return { status: 202, body: {} };
        },
      },
      {
        method: 'GET',
        pattern: '/app/installations',
        handle: (ctx) => {
          const ids = [...new Set(app.installations.values())].sort((a, b) => a - b);
          // The account is the owner of the installation's first repository; suspended ones say when.
          const ownerOf = (id: number) => [...app.installations.entries()].find(([, i]) => i === id)?.[0].split('/')[0] ?? 'acme';
          return paged(ctx, '/app/installations', ids, (page) =>
            page.map((id) => installationJson(apiBase(), id, app.appId, ownerOf(id), app.suspended.get(id))),
          );
        },
      },
      {
        method: 'GET',
        pattern: '/installation/repositories',
        handle: (ctx) => {
          const installation = installationOf(ctx);
          const repos = [...app.installations.entries()].filter(([, id]) => id === installation).map(([repo]) => repo);
          return paged(ctx, '/installation/repositories', repos, (page) => ({
            total_count: repos.length,
            repositories: page.map((full) => repositoryJson(apiBase(), full)),
          }));
        },
      },
      {
        method: 'GET',
        pattern: '/repos/{owner}/{repo}/pulls',
        handle: (ctx) => {
          const state = ctx.query.get('state') ?? 'open';
          const prs = [...app.pulls.entries()]
            .filter(([key, pr]) => key.startsWith(`${repoOf(ctx)}#`) && (state === 'all' || pr.state === state))
            .map(([, pr]) => pr);
          return paged(ctx, `/repos/${repoOf(ctx)}/pulls?state=${state}`, prs, (page) =>
            page.map((pr) => pullRequestSimpleJson(apiBase(), repoOf(ctx), pr)),
          );
        },
      },
      {
        method: 'POST',
        pattern: '/repos/{owner}/{repo}/actions/runs/{run_id}/deployment_protection_rule',
        handle: (ctx) => {
          const b = (ctx.body ?? {}) as Record<string, unknown>;
          const runId = Number(ctx.params.run_id);
          if (typeof b.environment_name !== 'string' || (b.state !== 'approved' && b.state !== 'rejected')) {
            return gitHubError(422, 'Invalid request: environment_name and state (approved|rejected) are required.');
          }
          if (typeof b.comment === 'string' && b.comment.length > 1024)
            return gitHubError(422, 'comment is too long (maximum is 1024 characters)');
          if (this.reviewsOf(repoOf(ctx), runId).some((r) => r.environment_name === b.environment_name)) {
            return gitHubError(422, 'No pending custom deployment protection rule for this environment.');
          }
          this.reviews.push({
            repo: repoOf(ctx),
            run_id: runId,
            environment_name: b.environment_name,
            state: b.state,
            comment: String(b.comment ?? ''),
            token: ctx.headers.authorization?.replace(/^(token|bearer)\s+/i, ''),
          });
          return { status: 204 };
        },
      },
    ];
  }
}
