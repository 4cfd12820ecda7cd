import { defineRoute } from '../route.js';
import { linkNext, linkNextHeader } from '../schemas/pagination-schemas.js';
import {
  decodeDeliveryCursor,
  deliveriesQuerySchema,
  deliveryListSchema,
  encodeDeliveryCursor,
  installationListSchema,
} from '../schemas/github-admin-schemas.js';

const tags = ['github'] as const;

/** What an ADMIN needs to see of the GitHub App (docs/github-app.md, "Installations" and "When the check didn't show up"). */
export const githubAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/github/installations',
    tags,
    auth: ['ADMIN'],
    summary: "The GitHub App's installations and their repositories",
    description:
      "Read from GitHub at each request, with the App credentials in force (environment, else the studio registration): the App's " +
      'installations (`GET /app/installations`, as the App), each with its account, whether it is suspended, and the repositories it may ' +
      'access (`GET /installation/repositories` with its token, every page). A suspended installation gets no token: its repositories are ' +
      'not listed and `repositories_unavailable` says why. Without App credentials the answer is 200 with `configured: false` and the ' +
      'reason (not an error: the page says how to register the App). GitHub unreachable or answering an error: 503.',
    responses: { 200: { description: 'The installations.', schema: installationListSchema } },
    errors: { 503: 'GitHub could not be read (its status is in `detail`).' },
    async handler({ deps }) {
      const found = await deps.installations.list();
      if (!found.configured) return { body: { configured: false, app_id: null, reason: found.reason, installations: [] } };
      return { body: { configured: true, app_id: found.app_id, reason: null, installations: found.installations } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/github/deliveries',
    tags,
    auth: ['ADMIN'],
    summary: 'The webhook deliveries shipgate received, newest first',
    description:
      'Every delivery received in the last 30 days (older ones are pruned), newest first: event, action, repository, and its outcome: ' +
      '`queued` (claimed, work not finished; after a failed attempt that will be retried, `reason` is that error), `processed`, ' +
      "`failed` (every attempt failed; `reason` is the last error's message), `ignored` (nothing to do; `reason` says why). " +
      '`duplicates` counts later receipts of the same X-GitHub-Delivery (answered `duplicate`, nothing done); `outcome=duplicate` lists ' +
      'those received more than once. Timings: received, the last attempt started and finished, its duration. `recovery_redeliveries` ' +
      'counts the redeliveries missed-delivery recovery asked GitHub for. Filter by `outcome` and `repo_root`; the next page is ' +
      'announced in the Link header.',
    query: deliveriesQuerySchema,
    responses: { 200: { description: 'A page of deliveries.', schema: deliveryListSchema, headers: linkNextHeader } },
    async handler({ query, ctx, deps }) {
      const after = query.cursor ? decodeDeliveryCursor(query.cursor) : undefined;
      const page = await deps.deliveries.list({ outcome: query.outcome, repo_root: query.repo_root }, { limit: query.limit, after });
      linkNext(ctx, page.next && encodeDeliveryCursor(page.next));
      return { body: { deliveries: page.items } };
    },
  }),
];
