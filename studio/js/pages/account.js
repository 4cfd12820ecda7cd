import { getJson, send } from '../api.js';
import { facts, h, link, replace, when } from '../dom.js';
import { signOut } from '../nav.js';
import { hasRole, session } from '../session.js';
import { gitHubErrorMessage, gitHubSignInEnabled, takeGitHubResult } from './github-sign-in.js';

/** @import { GitHubAuthorizeUrl, GitHubCallbackResult, RotatedKey, User, View } from '../../types.js' */

/**
 * Back from GitHub with a pending link's one-time code: this session's key finishes it (POST
 * /auth/github/link/finish), so a link started by another account can never complete here.
 * @param {string} code
 * @returns {Promise<{ text: string, error: boolean }>}
 */
async function finishLink(code) {
  try {
    /** @type {GitHubCallbackResult} */
    const done = await send('POST', 'auth/github/link/finish', { code });
    return { text: `GitHub account ${done.github_login} linked.`, error: false };
  } catch (error) {
    return { text: /** @type {Error} */ (error).message, error: true };
  }
}

/**
 * The linked GitHub account and its controls: "Link GitHub" (POST /auth/github/link answers
 * GitHub's authorization URL; the key stays in the request header, never in a URL) or
 * "Unlink GitHub" (DELETE /auth/github).
 * @param {View} view
 * @param {User} me
 */
async function gitHubControls(view, me) {
  if (me.github) {
    return h(
      'button.secondary',
      {
        type: 'button',
        id: 'unlink-github',
        onclick: async () => {
          await send('DELETE', 'auth/github');
          session.setMe(null);
          await showAccount(view, `GitHub account ${me.github?.login} unlinked.`);
        },
      },
      'Unlink GitHub',
    );
  }
  if (!(await gitHubSignInEnabled(view.signal))) return null;
  return h(
    'button.secondary',
    {
      type: 'button',
      id: 'link-github',
      onclick: async () => {
        /** @type {GitHubAuthorizeUrl} */
        const { authorize_url } = await send('POST', 'auth/github/link');
        location.assign(authorize_url);
      },
    },
    'Link GitHub',
  );
}

/**
 * The signed-in user, the linked GitHub account, rotate key, sign out. ADMINs manage users on the
 * Users page (#/users).
 * @param {View} view
 */
export function accountPage(view) {
  return showAccount(view);
}

/**
 * @param {View} view
 * @param {string} [said] what the last action did
 */
async function showAccount(view, said) {
  const github = takeGitHubResult();
  const linked = github.link ? await finishLink(github.link) : null;
  /** @type {User} */
  const me = await getJson('auth/me', { signal: view.signal });
  session.setMe(me);
  const failed = Boolean(github.error) || Boolean(linked?.error);
  const text = github.error ? gitHubErrorMessage(github.error) : (linked?.text ?? said);
  const message = h(failed ? 'p.notice.error' : 'p.notice', { role: 'status', id: 'account-message' }, text ?? '');
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
  const linkControl = await gitHubControls(view, me);
  replace(
    view.root,
    h('h1', {}, 'Account'),
    facts([
      ['Name', me.name],
      ['E-mail', me.email],
      ['Role', me.role],
      ['GitHub', h('span', { id: 'github-login' }, me.github ? me.github.login : 'not linked')],
      ['Since', when(me.created_at)],
    ]),
    h('div.actions', {}, rotate, linkControl, h('button.secondary', { type: 'button', onclick: signOut }, 'Sign out')),
    message,
    hasRole('ADMIN') ? h('p', {}, 'Manage users, their roles and access on the ', link('#/users', 'Users page'), '.') : null,
  );
}
