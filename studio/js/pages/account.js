import { getJson, send } from '../api.js';
import { facts, h, replace, when } from '../dom.js';
import { signOut } from '../nav.js';
import { hasRole, session } from '../session.js';
import { pagedList } from './paged-list.js';

/** @import { RotatedKey, User, View } from '../../types.js' */

const ROLES = ['ADMIN', 'OPERATOR', 'APPROVER', 'AUDITOR', 'VIEWER', 'POLICY_AUTHOR'];

/**
 * @param {User} user
 * @param {User} me
 * @param {HTMLElement} message
 */
function roleControl(user, me, message) {
  const control = h(
    'select',
    { name: 'role', disabled: user.id === me.id, 'aria-label': `Role of ${user.email}` },
    ROLES.map((role) => h('option', { value: role, selected: role === user.role }, role)),
  );
  control.addEventListener('change', async () => {
    try {
      /** @type {User} */
      const updated = await send('PATCH', `users/${user.id}`, { role: control.value });
      message.textContent = `${updated.email} is now ${updated.role}.`;
    } catch (error) {
      control.value = user.role;
      message.textContent = /** @type {Error} */ (error).message;
    }
  });
  return control;
}

/** The signed-in user, rotate key, sign out; for an ADMIN the user list with role changes. */
/** @param {View} view */
export async function accountPage(view) {
  /** @type {User} */
  const me = await getJson('auth/me', { signal: view.signal });
  session.setMe(me);
  const message = h('p.notice', { role: 'status', id: 'account-message' });
  const rotate = h(
    'button.secondary',
    {
      type: 'button',
      id: 'rotate-key',
      onclick: async () => {
        /** @type {RotatedKey} */
        const { api_key } = await send('POST', 'auth/rotate');
        session.setKey(api_key);
        message.textContent = 'Key rotated: the previous key no longer works; this session uses the new one.';
      },
    },
    'Rotate key',
  );
  const parts = [
    h('h1', {}, 'Account'),
    facts([
      ['Name', me.name],
      ['E-mail', me.email],
      ['Role', me.role],
      ['Since', when(me.created_at)],
    ]),
    h('div.actions', {}, rotate, h('button.secondary', { type: 'button', onclick: signOut }, 'Sign out')),
    message,
  ];
  if (!hasRole('ADMIN')) return void replace(view.root, ...parts);
  const users = pagedList(view, '/api/v1/users?limit=50', {
    headers: ['Name', 'E-mail', 'Role', 'Active', 'Since'],
    empty: 'No users.',
    row: (/** @type {User} */ user) => [
      user.name,
      user.email,
      roleControl(user, me, message),
      user.active ? 'yes' : 'no',
      when(user.created_at),
    ],
  });
  replace(view.root, ...parts, h('h2', {}, 'Users'), h('div', { id: 'users' }, users.element));
  await users.load();
}
