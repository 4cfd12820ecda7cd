import { send } from '../api.js';
import { h, pill, replace, when } from '../dom.js';
import { hasRole, session } from '../session.js';
import { pagedList } from './paged-list.js';

/** @import { User, View } from '../../types.js' */

const ROLES = ['ADMIN', 'OPERATOR', 'APPROVER', 'AUDITOR', 'VIEWER', 'POLICY_AUTHOR'];

/**
 * Says what happened (or the API's refusal, word for word) in the page's live region.
 * @param {HTMLElement} message
 * @param {string} text
 * @param {boolean} [refused]
 */
function say(message, text, refused = false) {
  message.className = refused ? 'notice error' : 'notice';
  message.textContent = text;
}

/**
 * How the account's repository actions are decided, in words (docs/api.md, "Repository access").
 * @param {User} user
 */
function repositoryAccessWords(user) {
  switch (user.repository_access) {
    case 'role_only':
      return user.service_account ? 'Service account: role alone' : 'Role alone';
    case 'github':
      return 'Role and GitHub permission';
    case 'public_only':
      return 'Public repositories only (no GitHub link)';
    case 'link_required':
      return 'None until GitHub is linked';
    default:
      return '';
  }
}

/**
 * One user's row: name, e-mail, role (select + save), status, repositories (how access is
 * decided, with "Make service account"), since, deactivate/reactivate.
 * The signed-in ADMIN's own controls stay enabled: the API refuses a self-demotion or
 * self-deactivation and the page shows its words.
 * @param {User} initial
 * @param {User | null} me
 * @param {HTMLElement} message
 * @param {(user: User) => void} onAccess told each time the row learns the user's repository access
 */
function userRow(initial, me, message, onAccess) {
  let user = initial;
  const self = me?.id === user.id;
  const role = h(
    'select',
    { name: 'role', 'aria-label': `Role of ${user.email}` },
    ROLES.map((value) => h('option', { value, selected: value === user.role }, value)),
  );
  const status = h('span', { class: 'user-status' });
  const toggle = h('button.secondary', { type: 'button', class: 'toggle-active' });
  const saveRole = h('button.secondary', { type: 'button', class: 'save-role', 'aria-label': `Save role of ${user.email}` }, 'Save role');
  const access = h('span', { class: 'repo-access' });
  const service = h('button.secondary', { type: 'button', class: 'toggle-service' });

  function draw() {
    role.value = user.role;
    replace(status, pill(user.active ? 'active' : 'deactivated'));
    toggle.textContent = user.active ? 'Deactivate' : 'Reactivate';
    toggle.setAttribute('aria-label', `${user.active ? 'Deactivate' : 'Reactivate'} ${user.email}`);
    access.textContent = repositoryAccessWords(user);
    access.className = user.repository_access === 'public_only' ? 'repo-access notice error' : 'repo-access';
    service.textContent = user.service_account ? 'Remove service account' : 'Make service account';
    service.setAttribute('aria-label', `${service.textContent} ${user.email}`);
    onAccess(user);
  }

  /**
   * @param {{ role?: string, active?: boolean, service_account?: boolean }} patch
   * @param {(updated: User) => string} done
   * @param {HTMLButtonElement} button
   */
  async function change(patch, done, button) {
    button.disabled = true;
    try {
      /** @type {User} */
      const updated = await send('PATCH', `users/${user.id}`, patch);
      user = updated;
      say(message, done(updated));
    } catch (error) {
      say(message, /** @type {Error} */ (error).message, true);
    } finally {
      button.disabled = false;
      draw();
    }
  }

  saveRole.addEventListener('click', () => change({ role: role.value }, (updated) => `${updated.email} is now ${updated.role}.`, saveRole));
  toggle.addEventListener('click', () =>
    change(
      { active: !user.active },
      (updated) =>
        updated.active
          ? `${updated.email} is active again: their keys work.`
          : `${updated.email} is deactivated: every request with their keys is refused (403) until reactivated.`,
      toggle,
    ),
  );
  service.addEventListener('click', () =>
    change(
      { service_account: !user.service_account },
      (updated) =>
        updated.service_account
          ? `${updated.email} is a service account: its role alone decides its repository access, without a GitHub link.`
          : `${updated.email} is no longer a service account.`,
      service,
    ),
  );
  draw();
  return [
    self ? [user.name, ' ', h('span.muted', {}, '(you)')] : user.name,
    user.email,
    h('span.actions', { 'data-user': user.email }, role, saveRole),
    status,
    h('span.actions', { 'data-user': user.email }, access, ' ', service),
    when(user.created_at),
    h('span.actions', { 'data-user': user.email }, toggle),
  ];
}

/** Every account (ADMIN): change a role, deactivate or reactivate; the API's rules and words. */
/** @param {View} view */
export async function usersPage(view) {
  if (!hasRole('ADMIN')) {
    replace(view.root, h('h1', {}, 'Users'), h('p.notice', {}, 'Only an ADMIN manages users. Ask an ADMIN to change your role.'));
    return;
  }
  const me = session.me();
  const message = h('p.notice', { role: 'status', 'aria-live': 'polite', id: 'users-message' });
  // The accounts that lost role-only access (never linked to GitHub, not service accounts), named above the list.
  const publicOnly = new Map();
  const lost = h('p', { id: 'users-public-only', hidden: true });
  /** @param {User} user */
  function onAccess(user) {
    if (user.repository_access === 'public_only') publicOnly.set(user.id, user.email);
    else publicOnly.delete(user.id);
    lost.hidden = publicOnly.size === 0;
    lost.className = 'notice error';
    lost.textContent =
      `Without a GitHub link, these accounts read public repositories only (SHIPGATE_REPO_ACCESS=github): ${[...publicOnly.values()].join(', ')}. ` +
      "Make a CI key's account a service account; a person links GitHub on their account page.";
  }
  const users = pagedList(view, '/api/v1/users?limit=50', {
    headers: ['Name', 'E-mail', 'Role', 'Status', 'Repositories', 'Since', 'Access'],
    empty: 'No users yet: people register at the sign-in page, then appear here.',
    row: (/** @type {User} */ user) => userRow(user, me, message, onAccess),
  });
  replace(
    view.root,
    h('h1', {}, 'Users'),
    h(
      'p.muted',
      {},
      'Every account, deactivated ones included, newest first. A deactivated user keeps their history; ' +
        'every request with their keys is refused until an ADMIN reactivates them. An ADMIN cannot demote or deactivate themself.',
    ),
    lost,
    message,
    h('div', { id: 'users-list' }, users.element),
  );
  await users.load();
}
