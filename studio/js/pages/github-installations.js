import { getJson } from '../api.js';
import { cell, h, pill, replace, when } from '../dom.js';
import { hasRole } from '../session.js';

/** @import { GitHubInstallationList, View } from '../../types.js' */

/** How many repositories an installation shows before "and N more". */
const SHOWN_REPOSITORIES = 20;

/** @param {string[]} repositories */
function repositoryList(repositories) {
  if (repositories.length === 0) return h('span.muted', {}, 'none');
  const shown = repositories.slice(0, SHOWN_REPOSITORIES);
  const rest = repositories.length - shown.length;
  return h(
    'span',
    {},
    shown.map((repo, i) => [i > 0 ? ', ' : '', h('a', { href: `#/repos/${repo}` }, repo)]),
    rest > 0 ? h('details', {}, h('summary', {}, `and ${rest} more`), repositories.slice(SHOWN_REPOSITORIES).join(', ')) : null,
  );
}

/**
 * The GitHub App's installations (GET /api/v1/github/installations, ADMIN), as an element to place
 * on any page: the installations page, and the GitHub settings page after the App's registration.
 * @param {View} view
 * @returns {Promise<HTMLElement>}
 */
export async function installationsList(view) {
  /** @type {GitHubInstallationList} */
  const found = await getJson('github/installations', { signal: view.signal });
  if (!found.configured) return h('p.notice', { id: 'installations-list' }, found.reason ?? 'The GitHub App is not configured.');
  if (found.installations.length === 0) {
    return h(
      'p.notice',
      { id: 'installations-list' },
      `The App (id ${found.app_id}) has no installation yet: install it on an organisation or account from its page on GitHub, then its repositories appear here.`,
    );
  }
  return h(
    'div',
    { id: 'installations-list' },
    h(
      'table.grid',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Account', 'Status', 'Repositories'].map((text) => h('th', {}, text)),
        ),
      ),
      h(
        'tbody',
        {},
        found.installations.map((installation) =>
          h(
            'tr',
            { 'data-installation': String(installation.id) },
            cell('Account', installation.account.login, ' ', h('span.muted', {}, `(${installation.account.type}, #${installation.id})`)),
            cell(
              'Status',
              installation.suspended_at
                ? [pill('suspended'), ' ', h('span.muted', {}, `since ${when(installation.suspended_at)}`)]
                : pill('active'),
            ),
            cell(
              'Repositories',
              installation.repository_selection === 'all' ? h('span.muted', {}, 'all repositories: ') : null,
              installation.repositories_unavailable
                ? h('span.muted', {}, installation.repositories_unavailable)
                : repositoryList(installation.repositories),
            ),
          ),
        ),
      ),
    ),
  );
}

/** The installations page (ADMIN): which accounts installed the App, on which repositories, suspended or not. */
/** @param {View} view */
export async function installationsPage(view) {
  if (!hasRole('ADMIN')) {
    replace(view.root, h('h1', {}, 'Installations'), h('p.notice', {}, 'Only an ADMIN sees the GitHub App’s installations.'));
    return;
  }
  const list = await installationsList(view);
  replace(
    view.root,
    h('h1', {}, 'Installations'),
    h(
      'p.muted',
      {},
      'The accounts that installed the GitHub App and the repositories each lets it read, as GitHub lists them now. ' +
        'A repository missing here gets no check run from shipgate. ',
      h('a', { href: '#/deliveries' }, 'Deliveries'),
      ' shows what GitHub sent.',
    ),
    list,
  );
}
