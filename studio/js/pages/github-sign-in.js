import { send } from '../api.js';
import { h } from '../dom.js';

/** @import { GitHubSignInStatus } from '../../types.js' */

/**
 * "Sign in with GitHub" in the studio (docs/github-app.md). The API's callback sends the browser
 * to `#/sign-in?github_code=…` (a one-time code, exchanged by POST for the key: no key is ever in
 * a URL), or `?github_error=<reason>`, or `#/account?github_link=…` (a one-time code that only the
 * key of the user who started the link finishes, by POST). This module is loaded before the router
 * first runs, and takes that query off the URL at once with history.replaceState, so the code is in
 * no history entry, bookmark or later Referer.
 */

/** @type {{ code: string | null, error: string | null, link: string | null }} */
const arrived = { code: null, error: null, link: null };

(function takeResultOffTheUrl() {
  const [route, query] = location.hash.split('?');
  if (!query || !/^#\/(sign-in|account)$/.test(route)) return;
  const params = new URLSearchParams(query);
  if (!params.has('github_code') && !params.has('github_error') && !params.has('github_link')) return;
  arrived.code = params.get('github_code');
  arrived.error = params.get('github_error');
  arrived.link = params.get('github_link');
  window.history.replaceState(window.history.state, '', `${location.pathname}${location.search}${route}`);
})();

/** What came back from GitHub, once: later renders see nothing. */
export function takeGitHubResult() {
  const result = { ...arrived };
  arrived.code = null;
  arrived.error = null;
  arrived.link = null;
  return result;
}

/** @type {Record<string, string>} */
const MESSAGES = {
  denied: 'You cancelled on GitHub: nothing was signed in or linked.',
  state: 'This GitHub sign-in link is unknown, already used or expired (10 minutes). Start again.',
  browser:
    'This GitHub sign-in was not started in this browser (or its cookie was blocked): nothing was signed in or linked. Start again here.',
  code: 'GitHub did not accept the sign-in (the code expired or was used). Start again.',
  org: 'Your GitHub account is not a member of an organisation allowed to sign in here.',
  org_unverifiable: 'Membership of the allowed organisations cannot be checked: the GitHub App is not installed there. Ask an ADMIN.',
  closed:
    'Registration is closed and this GitHub account is not linked to a shipgate account. Ask an ADMIN to create yours, then link GitHub on the account page.',
  deactivated: 'Account deactivated.',
  linked_elsewhere: 'This GitHub account is already linked to another shipgate user.',
  not_configured: 'Sign in with GitHub is not configured on this shipgate.',
  unavailable: 'GitHub could not be reached. Try again.',
};

/** @param {string} reason */
export function gitHubErrorMessage(reason) {
  return MESSAGES[reason] ?? 'GitHub sign-in was refused.';
}

/**
 * Whether the OAuth client is configured (the button is shown only then); false when unknown.
 * @param {AbortSignal} [signal]
 */
export async function gitHubSignInEnabled(signal) {
  try {
    /** @type {GitHubSignInStatus} */
    const status = await send('GET', 'auth/github', undefined, { anonymous: true, signal });
    return status.enabled;
  } catch {
    return false;
  }
}

/** The sign-in page's button: a plain navigation to the start route (the API redirects to GitHub). */
export function gitHubSignInButton() {
  return h('a.button.secondary', { href: '/api/v1/auth/github/start', id: 'github-sign-in' }, 'Sign in with GitHub');
}
