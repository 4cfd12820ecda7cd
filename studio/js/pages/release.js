import { getJson, send } from '../api.js';
import { field, h, pill, pre, replace, select, setTitle } from '../dom.js';
import { ago } from '../format.js';
import { hasRole, session } from '../session.js';
import { evidenceUploadForm } from './evidence-upload.js';
import { errorBox } from './submit-form.js';
import { authorshipSection, blockersList, healthSection, promotionsTable, provenanceSection, requirementsTable } from './release-parts.js';
import { overrideParts } from './release-override.js';
import { rulesSection } from './release-rules.js';
import { requiredEvidenceNames } from './release-blockers.js';
import { sessionCallsSection } from './release-session-calls.js';

/** @import { PromotionList, ReleaseDecision, ReleaseHealth, User, View } from '../../types.js' */

/**
 * The people a page can name without the API naming them: the signed-in user, and for an ADMIN
 * every account (GET /users); a failure only means short ids.
 * @param {AbortSignal} signal
 */
async function knownPeople(signal) {
  /** @type {Map<string, { name: string, email: string }>} */
  const known = new Map();
  const me = session.me();
  if (me) known.set(me.id, me);
  if (hasRole('ADMIN')) {
    const users = /** @type {User[]} */ (await getJson('users?limit=100', { signal }).catch(() => []));
    for (const u of users) known.set(u.id, u);
  }
  return known;
}

/**
 * Repository + commit -> the decision page.
 * @param {View} view
 */
export async function releaseLookupPage(view) {
  const repo = h('input', { name: 'repo_root', placeholder: 'owner/repo', required: true });
  const sha = h('input', { name: 'commit_sha', placeholder: '40-character commit SHA', required: true, pattern: '[0-9a-fA-F]{40}' });
  const form = h(
    'form.card',
    { id: 'release-lookup' },
    h('h1', {}, 'Releases'),
    h('p', {}, 'Evaluate the gate for a commit: SHIP or NO_SHIP, with what blocks it.'),
    field('Repository', repo),
    field('Commit', sha),
    h('button', { type: 'submit' }, 'Show decision'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const root = repo.value.trim().replace(/^https:\/\/github\.com\//i, '');
    view.go(`#/releases/${root}/${sha.value.trim().toLowerCase()}`);
  });
  replace(view.root, form, h('h2', {}, 'Health'), healthSection(await getJson('releases/health', { signal: view.signal })));
}

/** @param {ReleaseDecision} d */
function badgeSection(d) {
  const { repo_root: repoRoot, commit_sha: sha, decision_url: page } = d;
  const origin = location.origin;
  const badge = (/** @type {string} */ commit) => `/api/v1/trust/badge?${new URLSearchParams({ repo: repoRoot, commit })}`;
  return h(
    'div',
    { id: 'badge' },
    h('img', { src: badge(sha), alt: `shipgate badge for ${repoRoot}@${sha.slice(0, 12)}`, id: 'badge-image' }),
    h('p', {}, 'Markdown for this commit:'),
    pre(`[![shipgate](${origin}${badge(sha)})](${page})`),
    h('p', {}, 'Markdown for a README (follows the default branch):'),
    pre(`[![shipgate](${origin}${badge('HEAD')})](${page})`),
  );
}

/**
 * @param {ReleaseDecision} d
 * @param {() => Promise<void>} reload
 */
function promoteForm(d, reload) {
  const targets = d.allowed_promotions;
  if (targets.length === 0) return h('p.muted', {}, `A ${d.snapshot_status} snapshot cannot be promoted further.`);
  const target = select('target_status', targets, targets[0]);
  const label = h('input', { name: 'release_label', placeholder: 'e.g. v1.4.0', maxlength: 120 });
  const problem = h('div');
  const submit = h('button', { type: 'submit', id: 'promote' }, 'Promote');
  const form = h('form.inline', { id: 'promote-form' }, field('Move snapshot to', target), field('Release label', label), submit, problem);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      await send('POST', 'releases/promote', {
        snapshot_id: d.snapshot_id,
        target_status: target.value,
        release_label: label.value.trim() || null,
      });
      await reload();
    } catch (error) {
      replace(problem, errorBox(error));
      submit.disabled = false;
    }
  });
  return form;
}

/**
 * The decision page the GitHub App's check runs and comments link to.
 * @param {View} view
 * @param {Record<string, string>} params
 */
export async function releasePage(view, { owner, repo, sha }) {
  const repoRoot = `${owner}/${repo}`;
  async function load() {
    const query = new URLSearchParams({ repo_root: repoRoot, commit_sha: sha });
    /** @type {Promise<ReleaseDecision>} */
    const decision = getJson(`releases/decision?${query}`, { signal: view.signal });
    /** @type {Promise<PromotionList>} */
    const promotions = getJson(`releases/promotions?${query}&limit=50`, { signal: view.signal });
    /** @type {Promise<ReleaseHealth>} */
    const releaseHealth = getJson(`releases/health?${new URLSearchParams({ repo_root: repoRoot })}`, { signal: view.signal });
    const [d, history, health, known] = await Promise.all([decision, promotions, releaseHealth, knownPeople(view.signal)]);
    const sessions = await sessionCallsSection(d, view.signal);
    const upload = hasRole('ADMIN', 'OPERATOR') ? evidenceUploadForm(d, load) : null;
    const override = overrideParts(d, load);
    replace(
      view.root,
      h(
        'div.heading',
        {},
        h('h1', {}, `${d.repo_root} @ `, h('code', {}, d.commit_sha.slice(0, 12))),
        h('button.secondary', { type: 'button', id: 're-evaluate', onclick: load }, 'Re-evaluate'),
      ),
      h(
        'div.decision',
        {},
        h('span', { id: 'decision' }, pill(d.decision)),
        d.overridden.length > 0
          ? h('span', { id: 'decision-override' }, ` by override of ${d.overridden.map((o) => `@${o.by}`).join(', ')}`)
          : null,
        ' snapshot ',
        h('span', { id: 'snapshot-status' }, d.snapshot_status),
        h('span.muted', {}, ' · evaluated ', ago(d.evaluated_at)),
      ),
      h('h2', {}, 'Blockers'),
      blockersList(d.blockers, upload?.open, requiredEvidenceNames(d.gate)),
      override.action,
      override.overridden,
      h('h2', {}, 'Requirements'),
      requirementsTable(d.explanation),
      upload
        ? [
            h(
              'p',
              {},
              h('button.secondary', { type: 'button', id: 'open-evidence-upload', onclick: () => upload.open('') }, 'Upload evidence'),
            ),
            upload.element,
          ]
        : null,
      h('h2', {}, 'Authorship'),
      authorshipSection(d),
      sessions,
      rulesSection(d),
      hasRole('ADMIN', 'APPROVER') ? [h('h2', {}, 'Promote'), promoteForm(d, load)] : null,
      h('h2', {}, 'History'),
      promotionsTable(history.promotions, known),
      h('h2', {}, 'Provenance'),
      provenanceSection(d),
      h('h2', {}, 'Badge'),
      badgeSection(d),
      h('h2', {}, 'Health'),
      healthSection(health),
    );
    // The tab says the decision, e.g. "NO_SHIP acme/api@02402c1 · shipgate".
    setTitle(`${d.decision} ${d.repo_root}@${d.commit_sha.slice(0, 7)}`);
  }
  await load();
}
