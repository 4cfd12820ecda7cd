import { createRequire } from 'node:module';
import { HANDLED_EVENTS, interpretDelivery } from '../../core/github/interpret-delivery.js';

const require = createRequire(import.meta.url);
const examples = require('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: Record<string, unknown>[] }[];

describe('interpretDelivery over every real payload GitHub documents', () => {
  const all = examples.flatMap((e) => e.examples.map((payload) => [e.name, String(payload.action ?? ''), payload] as const));

  it('queues only the events and actions shipgate acts on, and ignores everything else with a reason', () => {
    expect(all.length).toBeGreaterThan(200);
    for (const [event, action, payload] of all) {
      const { outcome } = interpretDelivery(event, payload, 1);
      if (outcome.status === 'queued') {
        // A push has no action: every push to a branch is read.
        if (event === 'push') expect(action).toBe('');
        else expect(HANDLED_EVENTS[event]).toContain(action);
      } else {
        expect(outcome.reason.length).toBeGreaterThan(10);
      }
    }
  });

  it('reads the fields the work needs from the real payloads', () => {
    const queued = all.map(([event, , payload]) => interpretDelivery(event, payload, 1)).filter((i) => i.outcome.status === 'queued');
    const kinds = new Set(queued.map((i) => (i.outcome.status === 'queued' ? i.outcome.intent.kind : null)));
    // Re-runs come from check_suite rerequested; check_run rerequested is another app's run here (ignored).
    expect(kinds).toEqual(new Set(['pull_request', 'pull_request_review', 'check_run', 'recheck', 'merge_group', 'push']));
    // Every review submitted, edited or dismissed re-reads the pull request's reviews (the agent rules).
    const reviews = all.filter(
      ([event, action]) => event === 'pull_request_review' && ['submitted', 'edited', 'dismissed'].includes(action),
    );
    expect(reviews.length).toBeGreaterThanOrEqual(3);
    for (const [event, , payload] of reviews) {
      const { outcome } = interpretDelivery(event, payload, 1);
      expect(outcome.status === 'queued' && outcome.intent).toMatchObject({ kind: 'pull_request_review', number: expect.any(Number) });
    }
    // A label added or removed re-reads the pull request's facts (a rule's `if.labels`), its head evaluated again.
    const labels = all.filter(([event, action]) => event === 'pull_request' && ['labeled', 'unlabeled'].includes(action));
    expect(labels.length).toBeGreaterThanOrEqual(2);
    for (const [event, , payload] of labels) {
      const { outcome } = interpretDelivery(event, payload, 1);
      expect(outcome.status === 'queued' && outcome.intent).toMatchObject({ kind: 'pull_request', evaluate: true, state: 'open' });
    }
    for (const i of queued) expect(i.repo_root).toMatch(/^[a-z0-9-]+\/[a-z0-9._-]+$/);
    // The examples' created/completed runs belong to app 29310 and the re-run ones to app 2: as
    // those apps, created/completed are their own (never evidence) and a re-run is a recheck.
    const checkRuns = all.filter(([event]) => event === 'check_run');
    const own = checkRuns.filter(([, action]) => action !== 'rerequested' && action !== 'requested_action');
    expect(own.map(([event, , payload]) => interpretDelivery(event, payload, 29310).outcome.status)).toEqual(own.map(() => 'ignored'));
    const reruns = checkRuns.filter(([, action]) => action === 'rerequested');
    expect(reruns.length).toBeGreaterThan(0);
    for (const [event, , payload] of reruns) {
      const { outcome } = interpretDelivery(event, payload, 2);
      expect(outcome.status === 'queued' && outcome.intent.kind).toBe('recheck');
    }
  });

  it('never throws on payloads that are not what the event promises', () => {
    for (const event of Object.keys(HANDLED_EVENTS)) {
      for (const payload of [null, 42, 'x', [], {}, { action: 'opened' }, { action: 'created', repository: { full_name: 'a/b' } }]) {
        expect(interpretDelivery(event, payload, null).outcome.status).toBe('ignored');
      }
    }
  });
});

describe('repository ids', () => {
  const opened = (repository: Record<string, unknown>) => ({
    action: 'opened',
    number: 7,
    pull_request: { number: 7, head: { sha: 'a'.repeat(40), ref: 'f' }, base: { ref: 'main' } },
    repository,
    installation: { id: 1 },
  });

  it('a payload whose owner carries no numeric id is still read, only not bound to ids', () => {
    const { outcome } = interpretDelivery('pull_request', opened({ full_name: 'acme/api', owner: { login: 'acme' } }), 1);
    expect(outcome.status).toBe('queued');
    expect(outcome.status === 'queued' && outcome.intent).not.toHaveProperty('repository_ids');
  });

  it('ids are bound when GitHub sends both', () => {
    const { outcome } = interpretDelivery('pull_request', opened({ full_name: 'acme/api', id: 42, owner: { login: 'acme', id: 9 } }), 1);
    expect(outcome.status === 'queued' && outcome.intent).toMatchObject({ repository_ids: { repository_id: '42', owner_id: '9' } });
  });
});

describe('push deliveries (docs/mcp-gateway.md, "Sessions and the commits they produced")', () => {
  const pushes = examples.find((e) => e.name === 'push')!.examples as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('a push to a branch queues its commits and head commit, each once, with the branch named without refs/heads/', () => {
    const toBranch = pushes.filter((p) => String(p.ref).startsWith('refs/heads/'));
    expect(toBranch.length).toBeGreaterThan(0);
    for (const payload of toBranch) {
      const { outcome } = interpretDelivery('push', payload, 1);
      const shas = [...new Set([...payload.commits.map((c: { id: string }) => c.id), payload.head_commit.id])];
      expect(outcome).toEqual({
        status: 'queued',
        intent: expect.objectContaining({ kind: 'push', branch: 'master', shas, head_sha: payload.after }),
      });
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const many: Record<string, any> = {
      ...toBranch[0],
      ref: 'refs/heads/copilot/fix-12',
      commits: [{ id: 'A'.repeat(40) }, { id: 'b'.repeat(40) }],
    };
    many.head_commit = { ...many.head_commit, id: 'b'.repeat(40) };
    const { outcome } = interpretDelivery('push', many, 1);
    expect(outcome.status === 'queued' && outcome.intent).toMatchObject({
      branch: 'copilot/fix-12',
      shas: ['a'.repeat(40), 'b'.repeat(40)],
    });
  });

  it('tag pushes and deleted branches are ignored, with the reason', () => {
    const tags = pushes.filter((p) => String(p.ref).startsWith('refs/tags/'));
    expect(tags.length).toBeGreaterThan(0);
    for (const payload of tags) expect(interpretDelivery('push', payload, 1).outcome).toMatchObject({ status: 'ignored' });
    const branch = pushes.find((p) => String(p.ref).startsWith('refs/heads/'))!;
    const deleted = { ...branch, deleted: true, after: '0'.repeat(40), commits: [], head_commit: null };
    expect(interpretDelivery('push', deleted, 1).outcome).toEqual({ status: 'ignored', reason: 'A deleted branch brings no commit.' });
    expect(interpretDelivery('push', { ...branch, ref: 'refs/tags/v1' }, 1).outcome).toMatchObject({
      reason: expect.stringContaining('tag'),
    });
  });
});

describe('interpretDelivery with values no GitHub sends (a signed payload is not a trusted one)', () => {
  const example = (event: string, action: string) => {
    const found = examples.find((e) => e.name === event)?.examples.find((p) => p.action === action);
    return structuredClone(found) as Record<string, Record<string, unknown>>;
  };

  it('ignores a check run whose conclusion is 5 MB, or a pull request whose branch is 10 MB, rather than storing and serving them', () => {
    const run = example('check_run', 'completed');
    run.check_run.conclusion = 'x'.repeat(5 * 1024 * 1024);
    expect(interpretDelivery('check_run', run, 1).outcome).toEqual({
      status: 'ignored',
      reason: 'The check_run payload lacks the fields shipgate needs.',
    });
    const pull = example('pull_request', 'opened');
    (pull.pull_request.head as Record<string, unknown>).ref = 'b'.repeat(10 * 1024 * 1024);
    expect(interpretDelivery('pull_request', pull, 1).outcome).toMatchObject({ status: 'ignored' });
  });

  it('never echoes an action it cannot read: a 1 MB action, or a repository that is no object, is named as such', () => {
    const huge = { ...example('pull_request', 'opened'), action: 'a'.repeat(1024 * 1024) };
    const outcome = interpretDelivery('pull_request', huge, 1).outcome;
    expect(outcome).toEqual({
      status: 'ignored',
      reason: "The pull_request payload's action, repository or installation is not what GitHub sends.",
    });
    const flat = { ...example('pull_request', 'opened'), repository: 'acme/app' };
    expect(interpretDelivery('pull_request', flat, 1).outcome).toMatchObject({
      reason: expect.stringContaining('is not what GitHub sends'),
    });
  });
});
