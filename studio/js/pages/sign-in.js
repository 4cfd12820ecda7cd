import { ApiError, send } from '../api.js';
import { field, h, replace } from '../dom.js';
import { session } from '../session.js';
import { gitHubErrorMessage, gitHubSignInButton, gitHubSignInEnabled, takeGitHubResult } from './github-sign-in.js';

/** @import { SignedIn, View } from '../../types.js' */

/**
 * Sign in (POST /auth/login) or create an account (POST /auth/register); either gives a key. With
 * GitHub's OAuth client configured, "Sign in with GitHub" too: back from GitHub, the one-time code
 * is exchanged (POST /auth/github/exchange) for the key.
 * @param {View} view
 * @param {{ message: string, onSignedIn: () => void }} options
 */
export function signInPage(view, { message, onSignedIn }) {
  let registering = false;
  const github = takeGitHubResult();
  const status = h('p.error', { role: 'alert', id: 'sign-in-message' }, github.error ? gitHubErrorMessage(github.error) : message || '');
  /** @type {boolean | null} */
  let withGitHub = null;
  const githubSlot = h('div.actions', { id: 'github-sign-in-slot' });
  const fillGitHubSlot = () => replace(githubSlot, ...(withGitHub && !registering ? [gitHubSignInButton()] : []));

  function show() {
    const name = h('input', { name: 'name', autocomplete: 'name', required: true, maxlength: 120 });
    const email = h('input', { name: 'email', type: 'email', autocomplete: 'username', required: true });
    const password = h('input', {
      name: 'password',
      type: 'password',
      autocomplete: registering ? 'new-password' : 'current-password',
      required: true,
    });
    const submit = h('button', { type: 'submit' }, registering ? 'Create account' : 'Sign in');
    const form = h(
      'form.card.narrow',
      { id: 'sign-in-form' },
      h('h1', {}, registering ? 'Create an account' : 'Sign in to shipgate'),
      registering ? field('Name', name) : null,
      field('E-mail', email),
      field('Password', password, registering ? 'At least 8 characters.' : undefined),
      status,
      submit,
      githubSlot,
      h(
        'p.muted',
        {},
        registering ? 'Have an account? ' : 'New here? The first account on a fresh install becomes ADMIN. ',
        h(
          'button.link',
          {
            type: 'button',
            id: 'toggle-register',
            onclick: () => {
              registering = !registering;
              status.textContent = '';
              show();
            },
          },
          registering ? 'Sign in' : 'Create an account',
        ),
      ),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      submit.disabled = true;
      status.textContent = '';
      try {
        /** @type {SignedIn} */
        const answer = registering
          ? await send('POST', 'auth/register', { name: name.value, email: email.value, password: password.value }, { anonymous: true })
          : await send('POST', 'auth/login', { email: email.value, password: password.value }, { anonymous: true });
        session.setKey(answer.api_key);
        session.setMe(null);
        onSignedIn();
      } catch (error) {
        status.textContent = error instanceof ApiError ? error.message : `Cannot reach shipgate: ${/** @type {Error} */ (error).message}`;
        submit.disabled = false;
      }
    });
    replace(view.root, form);
    fillGitHubSlot();
    email.focus();
  }

  /** Back from GitHub with a one-time code: trade it for the key (the URL no longer holds it). */
  async function exchange(/** @type {string} */ code) {
    replace(view.root, h('div.card.narrow', {}, h('h1', {}, 'Signing in with GitHub…'), status));
    try {
      /** @type {SignedIn} */
      const answer = await send('POST', 'auth/github/exchange', { code }, { anonymous: true });
      session.setKey(answer.api_key);
      session.setMe(null);
      onSignedIn();
    } catch (error) {
      status.textContent = error instanceof ApiError ? error.message : `Cannot reach shipgate: ${/** @type {Error} */ (error).message}`;
      show();
    }
  }

  void gitHubSignInEnabled(view.signal).then((enabled) => {
    withGitHub = enabled;
    fillGitHubSlot();
  });
  if (github.code) void exchange(github.code);
  else show();
}
