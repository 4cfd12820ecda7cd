import { request } from './api.js';
import { h, replace } from './dom.js';
import { session } from './session.js';

/** @import { User } from '../types.js' */

const SECTIONS = [
  ['#/executions', 'Executions'],
  ['#/workflows', 'Workflows'],
  ['#/releases', 'Releases'],
  ['#/policies', 'Policies'],
  ['#/account', 'Account'],
];

/** Sections only an ADMIN sees (the server refuses everyone else anyway). */
const ADMIN_SECTIONS = [['#/users', 'Users']];

/** Revokes the session's key on the server, then forgets it here. */
export async function signOut() {
  try {
    await request('POST', 'auth/logout');
  } finally {
    session.clear();
    location.hash = '#/sign-in';
  }
}

/**
 * @param {HTMLElement} top
 * @param {User} me
 */
export function renderNav(top, me) {
  replace(
    top,
    h(
      'nav.bar',
      {},
      h('a.brand', { href: '#/executions' }, 'shipgate'),
      h(
        'ul',
        {},
        [...SECTIONS, ...(me.role === 'ADMIN' ? ADMIN_SECTIONS : [])].map(([href, text]) =>
          h('li', {}, h('a', { href, class: location.hash.startsWith(href) ? 'active' : undefined }, text)),
        ),
      ),
      h(
        'span.who',
        {},
        h('span', { id: 'who-name' }, me.name),
        ' ',
        h('span.role', { id: 'who-role' }, me.role),
        ' ',
        h('button.link', { type: 'button', id: 'sign-out', onclick: signOut }, 'Sign out'),
      ),
    ),
  );
}
