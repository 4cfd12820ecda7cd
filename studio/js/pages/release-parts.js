import { facts, h, link, pill, table } from '../dom.js';
import { ago, duration, durationsInText, person } from '../format.js';
import { evidenceSection } from './release-evidence.js';

/** @import { PromotionList, ReleaseDecision, ReleaseHealth } from '../../types.js' */

export { blockersList } from './release-blockers.js';

/** @typedef {{ name: string, email?: string | null }} Named */

/** @param {ReleaseDecision['explanation']} explanation */
export function requirementsTable(explanation) {
  return h(
    'div',
    { id: 'requirements' },
    table(
      ['Requirement', 'From', 'Met', 'Remediation'],
      explanation.map((r) => [
        durationsInText(r.requirement),
        r.policy,
        r.satisfied ? pill('met') : pill('unmet'),
        r.remediation ? h('details.api-remediation', {}, h('summary', {}, 'As the API states it'), r.remediation) : '',
      ]),
    ),
  );
}

/**
 * Who reported a check run (docs/release-gate.md, "Checks pinned to their source"): the GitHub App's slug and id, as the
 * webhook delivery named them.
 * @param {ReleaseDecision['provenance']['check_runs'][number]} c
 */
function checkRunSource(c) {
  if (!c.app) return h('span.muted', {}, 'unknown');
  const id = c.app.id === null ? '' : ` (App ${c.app.id})`;
  return h('span.check-source', {}, h('code', {}, c.app.slug ?? 'no slug'), id);
}

/** @param {ReleaseDecision} d */
export function provenanceSection(d) {
  const p = d.provenance;
  return h(
    'div',
    { id: 'provenance' },
    facts([
      ['Gate', `version ${d.gate.version} (${d.gate.source})`],
      ['Gate digest', h('code', {}, d.gate.digest)],
      ['Evidence digest', h('code', {}, p.evidence_digest)],
      [
        'Baseline',
        d.baseline
          ? h(
              'span',
              {},
              link(`#/releases/${d.repo_root}/${d.baseline.commit_sha}`, d.baseline.commit_sha.slice(0, 12)),
              ` ${d.baseline.release_label ?? ''} attested `,
              ago(d.baseline.attested_at),
            )
          : 'none yet',
      ],
    ]),
    h('h3', {}, 'Check runs'),
    p.check_runs.length
      ? table(
          ['Name', 'Reported by', 'Status', 'Conclusion', 'At'],
          p.check_runs.map((c) => [c.name, checkRunSource(c), c.status, c.conclusion ?? '—', ago(c.produced_at)]),
        )
      : h('p.muted', {}, 'None recorded.'),
    h('h3', {}, 'Uploaded evidence'),
    evidenceSection(p.evidence),
    h('h3', {}, 'Bound workflows'),
    p.workflows.length
      ? table(
          ['Workflow', 'Status', 'Release admission', 'Executions'],
          p.workflows.map((w) => [
            w.standalone ? 'single execution' : link(`#/workflows/${w.workflow_id}`, w.workflow_id),
            w.status,
            [w.release.admission, ...w.release.reasons].join(' '),
            h(
              'span',
              {},
              w.executions.map((e) =>
                h('span.chip', {}, link(`#/executions/${e.execution_id}`, e.stage_id ?? e.stage_role), ` ${e.status} ${e.verdict ?? ''}`),
              ),
            ),
          ]),
        )
      : h('p.muted', {}, 'None bound to this commit.'),
  );
}

/** @type {Record<string, string>} */
const UNKNOWN = {
  pending: 'not read from GitHub yet.',
  unreadable: 'unknown: GitHub could not be read (see the blockers).',
  commit_limit: 'unknown: more commits than GitHub lists (see the blockers).',
  no_pull_request: 'unknown: no open pull request names this commit, so the rules for people apply.',
};

/** Who made the change: the agents, each commit's identities, each approval counted or not and why. @param {ReleaseDecision} d */
export function authorshipSection(d) {
  const a = d.authorship;
  if (a.status !== 'read') return h('div', { id: 'authorship' }, h('p.muted', {}, `Who made this change is ${UNKNOWN[a.status]}`));
  return h(
    'div',
    { id: 'authorship' },
    h(
      'p',
      { id: 'authorship-summary' },
      a.agent_authored
        ? `Pull request #${a.pull_request} was made with ${a.agents.join(', ')}.`
        : `No agent took part in pull request #${a.pull_request}.`,
    ),
    table(
      ['Commit', 'Agent', 'Identities'],
      a.commits.map((c) => [h('code', {}, c.sha.slice(0, 12)), c.agent_authored ? pill('agent') : 'person', c.identities.join(', ')]),
    ),
    h('h3', {}, 'Approvals'),
    a.approvals.length
      ? table(
          ['Reviewer', 'Review', 'Head', 'Counted'],
          a.approvals.map((r) => [
            r.login,
            r.state,
            r.commit_sha ? h('code', {}, r.commit_sha.slice(0, 12)) : '—',
            r.counted ? pill('counted') : r.reason_text ? `not counted (${r.reason_text})` : 'not counted',
          ]),
        )
      : h('p.muted', {}, 'No approving reviews yet.'),
  );
}

/**
 * Who promoted: the name the API gives beside the id (every role), else the one `known` holds
 * (the signed-in user, or every user for an ADMIN), else a short id; the e-mail on hover when known.
 * @param {PromotionList['promotions'][number]} p
 * @param {Map<string, Named>} known
 */
function promoter(p, known) {
  const given = /** @type {{ promoted_by_name?: string | null, promoted_by_email?: string | null }} */ (p);
  const found = known.get(p.promoted_by);
  return person({ id: p.promoted_by, name: given.promoted_by_name ?? found?.name, email: given.promoted_by_email ?? found?.email });
}

/**
 * @param {PromotionList['promotions']} promotions
 * @param {Map<string, Named>} [known]
 */
export function promotionsTable(promotions, known = new Map()) {
  if (promotions.length === 0) return h('p.muted', { id: 'promotions' }, 'No promotions yet.');
  return h(
    'div',
    { id: 'promotions' },
    table(
      ['When', 'From', 'To', 'Label', 'By'],
      promotions.map((p) => [ago(p.created_at), p.from_status, pill(p.status), p.release_label ?? '', promoter(p, known)]),
    ),
  );
}

/** @param {ReleaseHealth} health */
export function healthSection(health) {
  const latest = health.latest_attested_snapshot;
  return h(
    'div',
    { id: 'health' },
    facts([
      ['Status', pill(health.status)],
      [
        'Verification graph',
        `${health.verification_graph.reachable ? 'reachable' : 'unreachable'} (${health.verification_graph.latency_ms} ms)`,
      ],
      [
        'Latest attested',
        latest
          ? `${latest.commit_sha.slice(0, 12)} ${latest.fresh ? 'fresh' : 'stale'} (${duration(latest.age_seconds)} old, at most ${duration(latest.max_age_seconds)})`
          : 'none yet',
      ],
      [
        'Runtime evidence',
        health.runtime_evidence.missing
          ? `missing: ${health.runtime_evidence.items.map((i) => `${i.kind} ${i.name}`).join(', ')}`
          : 'present',
      ],
      ['Checked', ago(health.checked_at)],
    ]),
  );
}
