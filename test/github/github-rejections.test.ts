import { checkRunPayload, deliver, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { deploymentRulePayload } from '../support/deployment-deliveries.js';
import { createDeploymentStore } from '../../db/stores/github/postgres-deployment-store.js';
import { checkRun, sha } from '../support/release-api.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

const SECRET = 'rejections-secret';
const stack = useAppWithFakeGitHub({ secret: SECRET, installationId: 77, gate: 'require_reviewed_release: false\n' });

const posted = (method: string, path: RegExp) =>
  stack.gh.requests.filter((r) => r.method === method && path.test(r.path)).map((r) => r.body as Record<string, unknown>);

describe('a 422 from GitHub is logged, recorded on the delivery, and never retried', () => {
  const repo = 'acme/refused';
  const validationFailed = (message: string) => ({
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message }],
      documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
      status: '422',
    },
  });
  const rejectionsOf = async (deliveryId: string) => {
    const { rows } = await stack.t.database.db.raw('SELECT rejections FROM github_deliveries WHERE delivery_id = ?', [deliveryId]);
    return rows[0].rejections as { at: string; request: string; status: number; message: string }[] | null;
  };

  beforeAll(() => stack.repository(repo));

  it('a refused comment: one POST, the check run still posted, GitHub’s message in the log and on the delivery', async () => {
    const head = sha('refused-comment');
    stack.gh.app.failNext('POST', /\/issues\/4\/comments$/, validationFailed('body is too long (maximum is 65536 characters)'));
    stack.gh.requests.length = 0;
    const res = await deliver(stack.t, 'pull_request', pullRequestPayload('opened', { number: 4, sha: head }, repo), {
      secret: SECRET,
      id: 'refused-comment-delivery',
    });
    expect(res.status).toBe(202);
    await settle(stack.t);

    expect(posted('POST', /\/issues\/4\/comments$/)).toHaveLength(1);
    expect(stack.gh.app.commentsOn(repo, 4)).toEqual([]);
    expect(stack.gh.app.checkRunsOn(repo, head)).toHaveLength(1);
    const message = 'Validation Failed: body is too long (maximum is 65536 characters)';
    expect(stack.t.logs.events('github_post_rejected')).toContainEqual(
      expect.objectContaining({
        delivery_id: 'refused-comment-delivery',
        repo_root: repo,
        status: 422,
        request: `POST /api/v3/repos/${repo}/issues/4/comments`,
        message,
      }),
    );
    expect(await rejectionsOf('refused-comment-delivery')).toEqual([
      { at: expect.any(String), request: `POST /api/v3/repos/${repo}/issues/4/comments`, status: 422, message },
    ]);
    // Not retried: no publish job is left to run again, and GitHub saw no second attempt.
    const { rows } = await stack.t.database.db.raw(
      `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'github_publish'`,
    );
    expect(rows[0].n).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await settle(stack.t);
    expect(posted('POST', /\/issues\/4\/comments$/)).toHaveLength(1);
  });

  it('a refused check run: one POST, the comment still posted, the refusal on the delivery', async () => {
    const head = sha('refused-check-run');
    const message = 'Invalid request.\n\nOnly 65535 characters are allowed; 65536 were supplied.';
    stack.gh.app.failNext('POST', /\/check-runs$/, {
      status: 422,
      body: { message, documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run', status: '422' },
    });
    stack.gh.requests.length = 0;
    await deliver(stack.t, 'pull_request', pullRequestPayload('opened', { number: 6, sha: head }, repo), {
      secret: SECRET,
      id: 'refused-check-run-delivery',
    });
    await settle(stack.t);

    expect(posted('POST', /\/check-runs$/)).toHaveLength(1);
    expect(stack.gh.app.checkRunsOn(repo, head)).toEqual([]);
    expect(stack.gh.app.commentsOn(repo, 6)).toHaveLength(1);
    expect(await rejectionsOf('refused-check-run-delivery')).toEqual([
      { at: expect.any(String), request: `POST /api/v3/repos/${repo}/check-runs`, status: 422, message },
    ]);
  });

  it('a 403 that is no rate limit and a 404 are refusals too: one attempt each, recorded, listed with the delivery', async () => {
    const head = sha('forbidden-and-gone');
    stack.gh.app.failNext('POST', /\/check-runs$/, {
      status: 403,
      body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' },
    });
    stack.gh.app.failNext('POST', /\/issues\/8\/comments$/, {
      status: 404,
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
    });
    stack.gh.requests.length = 0;
    await deliver(stack.t, 'pull_request', pullRequestPayload('opened', { number: 8, sha: head }, repo), {
      secret: SECRET,
      id: 'forbidden-and-gone-delivery',
    });
    await settle(stack.t);
    // Delivered once the refusals are used up: the failures above match any check run's POST.
    await deliver(stack.t, 'pull_request', pullRequestPayload('opened', { number: 9, sha: sha('taken') }, repo), {
      secret: SECRET,
      id: 'taken-delivery',
    });
    await settle(stack.t);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await settle(stack.t);

    expect(posted('POST', /\/check-runs$/).filter((body) => body.head_sha === head)).toHaveLength(1);
    expect(posted('POST', /\/issues\/8\/comments$/)).toHaveLength(1);
    const refusals = [
      {
        at: expect.any(String),
        request: `POST /api/v3/repos/${repo}/check-runs`,
        status: 403,
        message: 'Resource not accessible by integration',
      },
      { at: expect.any(String), request: `POST /api/v3/repos/${repo}/issues/8/comments`, status: 404, message: 'Not Found' },
    ];
    expect(await rejectionsOf('forbidden-and-gone-delivery')).toEqual(expect.arrayContaining(refusals));
    const res = await stack.t.request.get(`/api/v1/github/deliveries?repo_root=${repo}`).set(stack.t.admin.auth).expect(200);
    const listed = res.body.deliveries.find((d: { delivery_id: string }) => d.delivery_id === 'forbidden-and-gone-delivery');
    expect(listed).toMatchObject({ outcome: 'processed' });
    expect(listed.rejections).toHaveLength(2);
    expect(listed.rejections).toEqual(expect.arrayContaining(refusals));
    const taken = res.body.deliveries.find((d: { delivery_id: string }) => d.delivery_id === 'taken-delivery');
    expect(taken).toMatchObject({ outcome: 'processed', rejections: [] });
  });

  it('a refused deployment review: one POST, recorded on the request and its delivery, not reviewed again when a check completes', async () => {
    const head = sha('refused-deployment');
    await checkRun(stack.t, { repo_root: repo, commit_sha: head, name: 'lint' });
    const path = /\/actions\/runs\/7002\/deployment_protection_rule$/;
    stack.gh.app.failNext('POST', path, validationFailed('comment is too long'), 5);
    const payload = deploymentRulePayload(repo, { sha: head, environment: 'staging', runId: 7002 });
    const res = await deliver(stack.t, 'deployment_protection_rule', payload, { secret: SECRET, id: 'refused-review-delivery' });
    expect(res.status).toBe(202);
    await settle(stack.t);

    expect(posted('POST', path)).toHaveLength(1);
    const rejection = {
      request: `POST /api/v3/repos/${repo}/actions/runs/7002/deployment_protection_rule`,
      status: 422,
      message: 'Validation Failed: comment is too long',
    };
    expect(stack.t.logs.events('github_post_rejected')).toContainEqual(expect.objectContaining({ commit_sha: head, ...rejection }));
    expect(await rejectionsOf('refused-review-delivery')).toEqual([{ at: expect.any(String), ...rejection }]);
    const { rows } = await stack.t.database.db.raw('SELECT state, rejection FROM deployment_requests WHERE run_id = 7002');
    expect(rows).toEqual([{ state: 'waiting', rejection: { at: expect.any(String), ...rejection } }]);

    // A completed check run re-reviews the waiting requests of its commit, and recovery queues
    // those whose job was lost: neither touches this one.
    await stack.send('check_run', checkRunPayload('completed', { id: 7003, name: 'ci', sha: head }, repo));
    expect(posted('POST', path)).toHaveLength(1);
    const orphaned = await createDeploymentStore(stack.t.database.db).orphaned(100);
    expect(orphaned.filter((request) => request.run_id === 7002)).toEqual([]);
  });
});
