import { request } from './api.js';
import { h, replace } from './dom.js';
import { hasRole, session } from './session.js';

/** @import { User } from '../types.js' */

/** [href, text, roles that see it (everyone when absent)]. */
/** @type {[string, string, User['role'][]?][]} */
const SECTIONS = [
  ['#/executions', 'Executions'],
  ['#/workflows', 'Workflows'],
  ['#/releases', 'Releases'],
  ['#/repos', 'Repositories'],
  ['#/policies', 'Policies'],
  ['#/users', 'Users', ['ADMIN']],
  ['#/github', 'GitHub', ['ADMIN']],
  ['#/deliveries', 'Deliveries', ['ADMIN']],
  ['#/installations', 'Installations', ['ADMIN']],
  ['#/mcp', 'MCP servers', ['ADMIN']],
  ['#/agent-calls', 'Pending calls', ['ADMIN', 'APPROVER']],
  ['#/account', 'Account'],
];

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
 * The top bar. On a narrow screen the sections fold behind a "Menu" button; the brand and
 * Sign out stay in view (studio.css, "Phone screens").
 * @param {HTMLElement} top
 * @param {User} me
 */
export function renderNav(top, me) {
  const sections = SECTIONS.filter(([, , roles]) => !roles || hasRole(...roles));
  const menu = h(
    'ul',
    { id: 'nav-sections' },
    sections.map(([href, text]) => {
      const active = location.hash.startsWith(href);
      return h('li', {}, h('a', { href, class: active ? 'active' : undefined, 'aria-current': active ? 'page' : undefined }, text));
    }),
  );
  const toggle = h(
    'button.menu-toggle',
    { type: 'button', id: 'menu-toggle', 'aria-expanded': 'false', 'aria-controls': 'nav-sections' },
    'Menu',
  );
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    bar.classList.toggle('open', open);
  });
  const bar = h(
    'nav.bar',
    { 'aria-label': 'Main' },
    h('a.brand', { href: '#/executions' }, 'shipgate'),
    toggle,
    menu,
    h(
      'span.who',
      {},
      h('span.name', { id: 'who-name' }, me.name),
      ' ',
      h('span.role', { id: 'who-role' }, me.role),
      ' ',
      h('button.link', { type: 'button', id: 'sign-out', onclick: signOut }, 'Sign out'),
    ),
  );
  replace(top, bar);
}
