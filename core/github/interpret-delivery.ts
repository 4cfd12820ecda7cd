import { z } from 'zod';
import { RELEASE_GATE_CHECK_NAME } from '../release/record-evidence.js';
import { normalizeCommitSha, normalizeRefName, normalizeRepoRoot } from '../release/github-identifiers.js';
import type { DeliveryIntent, DeliveryOutcome, PushIntent, RepoTarget } from './delivery-intent.js';
import { isRecheckCommand } from './recheck-command.js';
import { deploymentRuleIntent } from './deployment-rule-intent.js';

/** The events the App subscribes to and the actions of each that shipgate acts on. */
export const HANDLED_EVENTS: Record<string, string[]> = {
  // Labels are facts the gate's rules read (docs/release-gate.md, "Changed files"): a label change re-reads them.
  pull_request: ['opened', 'synchronize', 'reopened', 'ready_for_review', 'edited', 'closed', 'labeled', 'unlabeled'],
  pull_request_review: ['submitted', 'edited', 'dismissed'],
  check_run: ['created', 'completed', 'rerequested'],
  check_suite: ['rerequested'],
  issue_comment: ['created'],
  merge_group: ['checks_requested'],
  deployment_protection_rule: ['requested'],
  // A push delivery has no action: every push to a branch is read (interpretPush).
  push: [],
};

const sha = z.string().transform((s, ctx) => normalizeCommitSha(s) ?? (ctx.addIssue({ code: 'custom', message: 'not a SHA' }), z.NEVER));
// Bounds on what is stored and shown again (the decision, the deliveries page, a 202's reason): GitHub's
// own values are far shorter; a signed payload with a 5 MB conclusion was stored and served in every decision.
/** A word GitHub chooses (an action, a status, a conclusion, a slug, a time). */
const word = z.string().max(100);
/** A branch or ref name. */
const ref = z.string().max(1024);
const envelope = z.object({
  action: word.optional(),
  // The numeric ids are optional: a payload without them is still read, only not bound to ids.
  repository: z.object({
    full_name: z.string().max(300),
    id: z.number().int().optional(),
    owner: z.object({ id: z.number().int().optional() }).optional(),
  }),
  installation: z.object({ id: z.number().int() }).nullish(),
});
const pullRequest = z.object({
  number: z.number().int().positive().optional(),
  pull_request: z.object({
    number: z.number().int().positive(),
    head: z.object({ sha, ref }),
    base: z.object({ ref }),
    updated_at: word.nullish(),
  }),
});
const checkRun = z.object({
  check_run: z.object({
    id: z.number().int(),
    name: z.string().min(1),
    head_sha: sha,
    status: word,
    conclusion: word.nullish(),
    started_at: word.nullish(),
    completed_at: word.nullish(),
    details_url: z.string().max(8192).nullish(),
    app: z.object({ id: z.number().int(), slug: word.nullish() }).nullish(),
    check_suite: z.object({ head_branch: ref.nullish() }).nullish(),
  }),
});
const checkSuite = z.object({ check_suite: z.object({ head_sha: sha, app: z.object({ id: z.number().int() }).nullish() }) });
const issueComment = z.object({
  issue: z.object({ number: z.number().int().positive(), pull_request: z.object({}).passthrough().nullish() }),
  comment: z.object({ body: z.string().nullish(), user: z.object({ login: z.string(), type: z.string().optional() }) }),
});
const push = z.object({
  ref,
  after: sha,
  deleted: z.boolean().optional(),
  commits: z.array(z.object({ id: sha })).nullish(),
  head_commit: z.object({ id: sha }).nullish(),
});
const mergeGroup = z.object({ merge_group: z.object({ head_sha: sha, head_ref: ref, base_ref: ref }) });

const ignored = (reason: string): DeliveryOutcome => ({ status: 'ignored', reason });

/**
 * A push to a branch: the commits it brought (its `commits`, which GitHub caps, and its head
 * commit), or why it is ignored (a tag, a deleted branch, no commit).
 */
function interpretPush(payload: unknown, target: RepoTarget): PushIntent | string {
  const p = push.safeParse(payload);
  if (!p.success) return 'The push payload lacks the fields shipgate needs.';
  const { ref, after, deleted, commits, head_commit } = p.data;
  if (!ref.startsWith('refs/heads/')) return 'Only pushes to branches bring commits shipgate records; this one is a tag.';
  if (deleted) return 'A deleted branch brings no commit.';
  const shas = [...new Set([...(commits ?? []).map((c) => c.id), ...(head_commit ? [head_commit.id] : [])])];
  if (shas.length === 0) return 'The push brought no commit.';
  return { kind: 'push', ...target, branch: normalizeRefName(ref), shas, head_sha: after };
}

export interface InterpretedDelivery {
  outcome: DeliveryOutcome;
  action: string | null;
  repo_root: string | null;
  installation_id: number | null;
}

/**
 * Decides what a delivery means for the gate: the work to queue, or why it is ignored. Pure: the
 * webhook claims the delivery and queues the intent; the job does the work. `appId` is ours:
 * events about our own check run never count as evidence or trigger an evaluation (no loops).
 */
export function interpretDelivery(event: string, payload: unknown, appId: number | null): InterpretedDelivery {
  const head = envelope.safeParse(payload);
  const action = head.success ? (head.data.action ?? null) : null;
  const repoRoot = head.success ? normalizeRepoRoot(head.data.repository.full_name) : null;
  const installationId = head.success ? (head.data.installation?.id ?? null) : null;
  // The repository's numeric ids, which OIDC tokens must match (core/accounts/workflow-repository-ids.ts).
  const repository = head.success ? head.data.repository : null;
  const ids =
    repository?.id !== undefined && repository.owner?.id !== undefined
      ? { repository_ids: { repository_id: String(repository.id), owner_id: String(repository.owner.id) } }
      : {};
  const result = (outcome: DeliveryOutcome): InterpretedDelivery => ({
    outcome,
    action,
    repo_root: repoRoot,
    installation_id: installationId,
  });

  const actions = HANDLED_EVENTS[event];
  if (!actions) return result(ignored(`shipgate does not act on ${event} events.`));
  // Not "does not act on <event>.(no action)": the envelope itself is not what GitHub sends.
  if (!head.success && typeof (payload as { action?: unknown } | null)?.action === 'string')
    return result(ignored(`The ${event} payload's action, repository or installation is not what GitHub sends.`));
  if (event === 'push') {
    if (!repoRoot) return result(ignored('The payload names no repository shipgate can read.'));
    const intent = interpretPush(payload, { repo_root: repoRoot, installation_id: installationId, ...ids });
    return result(typeof intent === 'string' ? ignored(intent) : { status: 'queued', intent });
  }
  if (!action || !actions.includes(action)) return result(ignored(`shipgate does not act on ${event}.${action ?? '(no action)'}.`));
  if (!repoRoot) return result(ignored('The payload names no repository shipgate can read.'));
  const target = { repo_root: repoRoot, installation_id: installationId, ...ids };
  const queued = (intent: DeliveryIntent) => result({ status: 'queued', intent });
  const malformed = () => result(ignored(`The ${event} payload lacks the fields shipgate needs.`));

  switch (event) {
    case 'pull_request': {
      const p = pullRequest.safeParse(payload);
      if (!p.success) return malformed();
      const { head, base } = p.data.pull_request;
      const closed = action === 'closed';
      return queued({
        kind: 'pull_request',
        ...target,
        number: p.data.number ?? p.data.pull_request.number,
        head_sha: head.sha,
        head_ref: head.ref,
        base_ref: base.ref,
        state: closed ? 'closed' : 'open',
        observed_at: p.data.pull_request.updated_at ?? null,
        evaluate: !closed,
      });
    }
    case 'pull_request_review': {
      const p = pullRequest.safeParse(payload);
      if (!p.success) return malformed();
      return queued({ kind: 'pull_request_review', ...target, number: p.data.pull_request.number, head_sha: p.data.pull_request.head.sha });
    }
    case 'check_run': {
      const p = checkRun.safeParse(payload);
      if (!p.success) return malformed();
      const run = p.data.check_run;
      const ours = run.name === RELEASE_GATE_CHECK_NAME || (appId !== null && run.app?.id === appId);
      if (action === 'rerequested') {
        if (!ours) return result(ignored('A re-run of another app’s check run is that app’s to answer.'));
        return queued({ kind: 'recheck', ...target, head_sha: run.head_sha });
      }
      if (ours) return result(ignored('Events about shipgate’s own check run are not evidence.'));
      return queued({
        kind: 'check_run',
        ...target,
        head_sha: run.head_sha,
        head_branch: run.check_suite?.head_branch ?? null,
        check: {
          name: run.name,
          status: run.status,
          conclusion: run.conclusion ?? null,
          started_at: run.started_at ?? null,
          completed_at: run.completed_at ?? null,
          details_url: run.details_url ?? null,
          external_id: run.id,
          // Who reported it, as GitHub says: what a pinned required check matches (docs/release-gate.md, "Checks pinned to their source").
          app: run.app ? { id: run.app.id, slug: run.app.slug ?? null } : null,
        },
      });
    }
    case 'check_suite': {
      const p = checkSuite.safeParse(payload);
      if (!p.success) return malformed();
      return queued({ kind: 'recheck', ...target, head_sha: p.data.check_suite.head_sha });
    }
    case 'issue_comment': {
      const p = issueComment.safeParse(payload);
      if (!p.success) return malformed();
      if (!p.data.issue.pull_request) return result(ignored('The comment is on an issue, not a pull request.'));
      if (!isRecheckCommand(p.data.comment.body ?? '')) return result(ignored('The comment holds no /shipgate recheck command.'));
      if (p.data.comment.user.type === 'Bot') return result(ignored('Commands from bots are not followed.'));
      return queued({ kind: 'recheck_command', ...target, number: p.data.issue.number, user: p.data.comment.user.login });
    }
    case 'deployment_protection_rule': {
      const intent = deploymentRuleIntent(payload, target);
      return 'ignored' in intent ? result(ignored(intent.ignored)) : queued(intent);
    }
    default: {
      const p = mergeGroup.safeParse(payload);
      if (!p.success) return malformed();
      const group = p.data.merge_group;
      return queued({ kind: 'merge_group', ...target, head_sha: group.head_sha, head_ref: group.head_ref, base_ref: group.base_ref });
    }
  }
}
