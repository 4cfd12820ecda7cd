import { h, link, pill, when } from '../dom.js';
import { person } from '../format.js';
import { pagedList } from './paged-list.js';

/** @import { ReleaseOverride, ReleaseOverrideList, View } from '../../types.js' */

/**
 * Until when an override lasts or lasted, and for a revoked one, when it was revoked.
 * @param {ReleaseOverride} o
 */
function lasts(o) {
  if (o.state === 'revoked') return `revoked ${when(o.revoked_at)} (was until ${when(o.expires_at)})`;
  return `${o.state === 'active' ? 'until' : 'ended'} ${when(o.expires_at)}`;
}

/**
 * The repository's overrides (docs/release-gate.md, "Overrides"), active, expired and revoked,
 * newest first, from GET /releases/overrides; "Load more" follows the API's Link header. Each links
 * to its commit's release page, where an active one can be revoked.
 * @param {View} view
 * @param {string} repoRoot
 */
export async function overridesSection(view, repoRoot) {
  const list = pagedList(view, `/api/v1/releases/overrides?${new URLSearchParams({ repo_root: repoRoot, limit: '20' })}`, {
    headers: ['State', 'Commit', 'Lifts', 'Reason', 'By', 'Lasts'],
    empty: 'No one has overridden a blocker of this repository.',
    unwrap: (json) => /** @type {ReleaseOverrideList} */ (json).overrides,
    row: (o) => [
      pill(o.state),
      link(`#/releases/${repoRoot}/${o.commit_sha}`, h('code', {}, o.commit_sha.slice(0, 12))),
      h(
        'span',
        {},
        o.blockers.map((b, i) => [i > 0 ? ', ' : '', h('code', {}, `${b.code} on ${b.component}`)]),
      ),
      o.reason,
      h('span', {}, person({ id: o.created_by, name: o.created_by_name }), ` (@${o.created_by_login})`),
      lasts(o),
    ],
  });
  await list.load();
  list.element.id = 'overrides';
  return list.element;
}
