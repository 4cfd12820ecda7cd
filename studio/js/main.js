import { getJson, whenUnauthorized } from './api.js';
import { h, replace, setTitle } from './dom.js';
import { session } from './session.js';
import { renderNav } from './nav.js';
import { findRoute } from './routes.js';
import { signInPage } from './pages/sign-in.js';

/** @import { User, View } from '../types.js' */

// index.html has both.
const top = /** @type {HTMLElement} */ (document.getElementById('top'));
const page = /** @type {HTMLElement} */ (document.getElementById('page'));
/** @type {AbortController | null} */
let current = null;
let signInMessage = '';

function isSignIn() {
  return location.hash.startsWith('#/sign-in');
}

/** Any 401: forget the key and go to sign-in with the server's message, back here afterwards. */
whenUnauthorized((message) => {
  session.clear();
  signInMessage = message;
  if (!isSignIn()) {
    session.rememberRoute(location.hash);
    location.hash = '#/sign-in';
  } else render();
});

/**
 * A fresh view per page: `signal` aborts its requests and timers when the user navigates away.
 * @returns {View}
 */
function newView() {
  current?.abort();
  current = new AbortController();
  const signal = current.signal;
  return {
    root: page,
    signal,
    /** Calls `fn` every `ms` until the view ends or `fn` answers false. */
    every(ms, fn) {
      let busy = false;
      const timer = setInterval(async () => {
        if (signal.aborted) return clearInterval(timer);
        if (busy) return;
        busy = true;
        try {
          if ((await fn()) === false) clearInterval(timer);
        } catch {
          // A failed poll is retried at the next tick; a 401 has already left the page.
        } finally {
          busy = false;
        }
      }, ms);
      signal.addEventListener('abort', () => clearInterval(timer));
    },
    go: (hash) => (location.hash = hash),
  };
}

async function render() {
  document.getElementById('toast')?.remove();
  const view = newView();
  if (!session.key()) {
    if (!isSignIn()) {
      session.rememberRoute(location.hash);
      location.hash = '#/sign-in';
      return;
    }
    replace(top);
    document.title = 'shipgate';
    signInPage(view, { message: signInMessage, onSignedIn });
    titleFromHeading();
    return;
  }
  if (!session.me()) {
    try {
      session.setMe(await getJson('auth/me', { signal: view.signal }));
    } catch {
      return; // a 401 already went to sign-in
    }
  }
  if (isSignIn() || location.hash === '' || location.hash === '#/') return void (location.hash = '#/executions');
  signInMessage = '';
  renderNav(top, /** @type {User} */ (session.me())); // read just above
  const { page: show, params } = findRoute(location.hash);
  replace(page, h('p.muted', {}, 'Loading…'));
  document.title = 'shipgate';
  try {
    await show(view, params);
    if (!view.signal.aborted) titleFromHeading();
  } catch (error) {
    const failure = /** @type {{ status?: number, message: string }} */ (error);
    if (view.signal.aborted || failure.status === 401) return;
    replace(page, h('h1', {}, 'Something went wrong'), h('p.error', { role: 'alert' }, failure.message));
    // A record the caller may not see is "not found": its title names what (each route keeps its own title).
    setTitle(failure.status === 404 ? failure.message.replace(/\.$/, '') : 'Something went wrong');
  }
}

/** Each route has its own title: the page's own (dom.js `setTitle`) or else its h1. */
function titleFromHeading() {
  if (document.title !== 'shipgate') return;
  const heading = page.querySelector('h1')?.textContent?.trim();
  if (heading) setTitle(heading);
}

function onSignedIn() {
  location.hash = session.takeRoute() || '#/executions';
}

/** A failed button action (a refused promote, a lost connection) shows the server's message. */
window.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  if (event.reason?.name === 'AbortError' || event.reason?.status === 401) return;
  showToast(event.reason?.message ?? String(event.reason));
});

/** @param {string} message */
function showToast(message) {
  const toast = h(
    'div.toast',
    { role: 'alert', id: 'toast' },
    message,
    ' ',
    h('button.link', { type: 'button', onclick: () => toast.remove() }, 'Dismiss'),
  );
  document.getElementById('toast')?.remove();
  document.body.append(toast);
}

window.addEventListener('hashchange', render);
render();
