import { getJson } from '../api.js';
import { cell, facts, h, link, pill, table, when } from '../dom.js';
import { hasRole } from '../session.js';
import { pagedList } from './paged-list.js';
import { blockersChart, decisionsChart } from './repo-chart.js';

/** @import { PromotionList, ReleaseCommit, ReleaseCommitList, ReleaseHistory, View } from '../../types.js' */

/**
 * The parts of GET /releases/gates/{owner}/{repo} (ReleaseGateVersion in /openapi.json) this page reads.
 * @typedef {{ version: number, source: 'default' | 'api' | 'config_file', digest: string, created_at: string | null,
 *   gate: { required_evidence: (string | { name: string })[], require_reviewed_release: boolean } }} GateVersion
 */

/** The decision page of a commit. */
const releaseHref = (/** @type {string} */ repoRoot, /** @type {string} */ sha) => `#/releases/${repoRoot}/${sha}`;
const RELEASE_HEADERS = ['Status', 'Commit', 'Label', 'When'];

/**
 * The gate in force: its version (0 is the built-in default), where it came from, what it requires.
 * @param {string} repoRoot
 * @param {AbortSignal} signal
 */
export async function gateSection(repoRoot, signal) {
  /** @type {GateVersion} */
  const gate = await getJson(`releases/gates/${repoRoot}`, { signal });
  const required = gate.gate.required_evidence.map((entry) => (typeof entry === 'string' ? entry : entry.name));
  const source = { default: 'built-in default (no gate recorded)', api: 'set in shipgate', config_file: '.github/shipgate.yml' }[
    gate.source
  ];
  return h(
    'div',
    { id: 'gate' },
    facts([
      ['Version', h('span', { id: 'gate-version' }, String(gate.version))],
      ['Source', source],
      ['Since', gate.created_at ? when(gate.created_at) : null],
      ['Required evidence', required.length ? required.join(', ') : 'none'],
      ['Reviewed release required', gate.gate.require_reviewed_release ? 'yes' : 'no'],
      ['Digest', h('code', {}, gate.digest.slice(0, 16))],
    ]),
    hasRole('ADMIN', 'POLICY_AUTHOR')
      ? h('p', {}, link(`#/repos/${repoRoot}/gate`, 'Edit the gate'))
      : h('p', {}, link(`#/repos/${repoRoot}/gate`, 'Gate versions')),
  );
}

/**
 * The newest attested and promoted releases, from the promotion history.
 * @param {string} repoRoot
 * @param {AbortSignal} signal
 */
export async function releasesSection(repoRoot, signal) {
  /** @type {PromotionList} */
  const { promotions } = await getJson(`releases/promotions?${new URLSearchParams({ repo_root: repoRoot, limit: '100' })}`, { signal });
  const latest = (/** @type {string} */ status) => promotions.find((p) => p.status === status);
  const row = (/** @type {string} */ status) => {
    const p = latest(status);
    if (!p) return [status, 'none yet', '', ''];
    return [
      pill(status),
      link(releaseHref(repoRoot, p.commit_sha), h('code', {}, p.commit_sha.slice(0, 12))),
      p.release_label ?? '',
      when(p.created_at),
    ];
  };
  return h(
    'div',
    { id: 'releases' },
    h(
      'table.grid',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          RELEASE_HEADERS.map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        ['attested', 'promoted'].map((status) =>
          h(
            'tr',
            { dataset: { status } },
            row(status).map((content, i) => cell(RELEASE_HEADERS[i], content)),
          ),
        ),
      ),
    ),
  );
}

/**
 * The commits shipgate knows, newest first, with their latest decision and snapshot; "Load more"
 * follows the API's keyset pages.
 * @param {View} view
 * @param {string} repoRoot
 */
export async function commitsSection(view, repoRoot) {
  const list = pagedList(view, `/api/v1/releases/commits?${new URLSearchParams({ repo_root: repoRoot, limit: '30' })}`, {
    headers: ['Commit', 'Decision', 'Snapshot', 'Evaluated', 'Pull request'],
    empty: 'shipgate has decided nothing for this repository yet: a decision is made when CI, the App or someone asks for one.',
    unwrap: (json) => /** @type {{ commits: ReleaseCommit[] }} */ (json).commits,
    row: (c) => [
      link(releaseHref(repoRoot, c.commit_sha), h('code', {}, c.commit_sha.slice(0, 12))),
      pill(c.decision),
      c.snapshot_status,
      when(c.evaluated_at),
      c.pull_request_number ? `#${c.pull_request_number}` : '',
    ],
  });
  await list.load();
  list.element.id = 'commits';
  return list.element;
}

/**
 * Decisions per UTC day and the most frequent blockers over the window.
 * @param {string} repoRoot
 * @param {AbortSignal} signal
 */
export async function historySection(repoRoot, signal) {
  /** @type {ReleaseHistory} */
  const history = await getJson(`releases/history?${new URLSearchParams({ repo_root: repoRoot, days: '30' })}`, { signal });
  return h(
    'div',
    { id: 'history' },
    decisionsChart(history.per_day.map((d) => ({ day: d.day, ship: d.ship, no_ship: d.no_ship }))),
    h('h3', {}, 'Most frequent blockers'),
    blockersChart(history.top_blockers.map((b) => ({ code: b.code, count: b.count }))),
  );
}

/**
 * The rules of the gate that applied to a pull request, each met or not (docs/release-gate.md, "Rules"); the release
 * page of its head says what is missing.
 * @param {ReleaseCommit['rules']} rules
 */
function appliedRules(rules) {
  if (rules === null) return h('span.muted', {}, 'not judged');
  if (rules.length === 0) return h('span.muted', {}, 'none');
  return h(
    'ul.applied-rules',
    {},
    rules.map((r) => h('li', {}, r.name, ' ', pill(r.met ? 'met' : 'unmet'))),
  );
}

/**
 * Pull requests whose head shipgate has decided (the App records them), with the check shipgate
 * reports on that head: its latest decision. Whether a pull request is still open is GitHub's to say.
 * @param {string} repoRoot
 * @param {AbortSignal} signal
 */
export async function pullRequestsSection(repoRoot, signal) {
  /** @type {ReleaseCommitList} */
  const { commits } = await getJson(`releases/commits?${new URLSearchParams({ repo_root: repoRoot, limit: '100' })}`, { signal });
  /** @type {Map<number, ReleaseCommit>} */
  const heads = new Map();
  for (const c of commits) if (c.pull_request_number !== null && !heads.has(c.pull_request_number)) heads.set(c.pull_request_number, c);
  if (heads.size === 0)
    return h(
      'p.muted',
      { id: 'pull-requests' },
      'No pull request among the recent commits: the GitHub App records them when it is installed.',
    );
  return h(
    'div',
    { id: 'pull-requests' },
    table(
      ['Pull request', 'Head commit', 'shipgate check', 'Rules that applied', 'Evaluated'],
      [...heads].map(([number, c]) => [
        `#${number}`,
        link(releaseHref(repoRoot, c.commit_sha), h('code', {}, c.commit_sha.slice(0, 12))),
        pill(c.decision),
        appliedRules(c.rules),
        when(c.evaluated_at),
      ]),
    ),
  );
}
