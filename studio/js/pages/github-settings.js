import { getJson } from '../api.js';
import { facts, h, replace, when } from '../dom.js';
import { hasRole } from '../session.js';
import { installationsList } from './github-installations.js';

/** @import { GitHubAppManifestForm, GitHubAppStatus, View } from '../../types.js' */

/** Why GitHub's redirect back could not finish (the callback's `?error=`), in words. */
const ERRORS = /** @type {Record<string, string>} */ ({
  state: 'The registration link was unknown, already used or expired (10 minutes). Start again below.',
  registered: 'A GitHub App is already configured: the one below stays in force.',
  code: 'GitHub did not accept the code (it is valid once, for an hour). Start again below.',
  unavailable: 'GitHub could not be reached to finish the registration. Try again; the App may exist on GitHub already.',
});

/** What the webhook does with deliveries now (GET /github/app's `webhook_deliveries`), in words. */
const DELIVERIES = /** @type {Record<GitHubAppStatus['webhook_deliveries'], string>} */ ({
  verified: 'Webhook deliveries are verified: each must carry a valid signature made with the webhook secret.',
  refused: 'Webhook deliveries are refused (503): no webhook secret is known yet. Register the App below or set WEBHOOK_SECRET.',
  unsigned:
    'Webhook deliveries are accepted UNSIGNED: no webhook secret is known and SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true, so anyone who reaches the webhook can forge them. For local experiments only: set WEBHOOK_SECRET or register the App.',
});

/** The hash's query (`#/github?registered=…`), as GitHub's redirect and the callback leave it. */
function hashQuery() {
  return new URLSearchParams(location.hash.split('?')[1] ?? '');
}

/**
 * The form GitHub's manifest flow takes: `manifest` (JSON text) and `state`, posted to GitHub's
 * new-App page. It is filled from GET /github/app/manifest when the ADMIN clicks, then submitted.
 * @param {HTMLElement} message
 */
function registerForm(message) {
  const manifest = h('input', { type: 'hidden', name: 'manifest' });
  const state = h('input', { type: 'hidden', name: 'state' });
  const owner = h(
    'select',
    { name: 'owner', id: 'app-owner', 'aria-label': 'Register the App under' },
    h('option', { value: 'user' }, 'My GitHub account'),
    h('option', { value: 'organization' }, 'An organisation'),
  );
  const organization = h('input', {
    name: 'organization',
    id: 'app-organization',
    'aria-label': 'Organisation',
    placeholder: 'organisation login, e.g. acme',
    autocomplete: 'off',
    hidden: true,
  });
  owner.addEventListener('change', () => {
    organization.hidden = owner.value !== 'organization';
  });
  const submit = h('button', { type: 'submit', id: 'register-app' }, 'Register the App on GitHub');
  const form = h('form', { method: 'post', id: 'register-app-form' }, manifest, state, owner, ' ', organization, ' ', submit);
  let prepared = false;
  form.addEventListener('submit', async (event) => {
    if (prepared) return;
    event.preventDefault();
    submit.disabled = true;
    message.className = 'notice';
    message.textContent = 'Preparing the manifest…';
    try {
      const org = owner.value === 'organization' ? organization.value.trim() : '';
      /** @type {GitHubAppManifestForm} */
      const prepared_ = await getJson(`github/app/manifest${org ? `?organization=${encodeURIComponent(org)}` : ''}`);
      form.setAttribute('action', prepared_.post_url);
      manifest.value = JSON.stringify(prepared_.manifest);
      state.value = prepared_.state;
      message.textContent = 'On to GitHub: confirm the App there; GitHub then sends you back here.';
      prepared = true;
      form.requestSubmit();
    } catch (error) {
      message.className = 'notice error';
      message.textContent = /** @type {Error} */ (error).message;
      submit.disabled = false;
    }
  });
  return form;
}

/**
 * The GitHub settings page (ADMIN): which App is in force and from where, the one-click
 * registration (GitHub's manifest flow), then the App's install link and its installations
 * (docs/github-app.md, "Register the App from the studio").
 * @param {View} view
 */
export async function githubSettingsPage(view) {
  if (!hasRole('ADMIN')) {
    replace(view.root, h('h1', {}, 'GitHub'), h('p.notice', {}, 'Only an ADMIN registers and configures the GitHub App.'));
    return;
  }
  /** @type {GitHubAppStatus} */
  const app = await getJson('github/app', { signal: view.signal });
  const query = hashQuery();
  const error = query.get('error');
  const message = h('p.notice', { role: 'status', 'aria-live': 'polite', id: 'github-message' });
  if (error) {
    message.className = 'notice error';
    message.textContent = ERRORS[error] ?? 'The registration did not finish.';
  } else if (query.get('registered')) {
    message.textContent = `The App ${query.get('registered')} is registered and in force on every replica: now install it.`;
  }
  const deliveries = h(
    app.webhook_deliveries === 'verified' ? 'p' : 'p.notice.error',
    { id: 'webhook-deliveries' },
    DELIVERIES[app.webhook_deliveries],
  );
  /** @type {HTMLElement[]} */
  const parts = [h('h1', {}, 'GitHub'), message, deliveries];
  if (app.configured) {
    parts.push(
      h(
        'p',
        { id: 'app-source' },
        app.source === 'environment'
          ? 'The GitHub App is configured by environment variables (APP_ID with PRIVATE_KEY or PRIVATE_KEY_PATH). They take precedence over an App registered here; unset them to use one registered from the studio.'
          : 'The GitHub App was registered from this page; its secrets are stored encrypted with SHIPGATE_SECRET_KEY.',
      ),
      facts([
        ['App id', app.app_id],
        ['Name', app.slug],
        ['Owner', app.owner],
        ['Registered', app.registered_at ? when(app.registered_at) : null],
      ]),
    );
    if (app.install_url) {
      parts.push(h('p', {}, h('a.button', { href: app.install_url, id: 'install-app', rel: 'noopener' }, 'Install the App on GitHub')));
    }
    if (app.html_url) parts.push(h('p', {}, h('a', { href: app.html_url, rel: 'noopener' }, "The App's settings on GitHub")));
    parts.push(
      h('h2', {}, 'Installations'),
      await installationsList(view),
      h('p', {}, h('a', { href: '#/installations' }, 'All installations')),
    );
  } else if (!app.public_url) {
    parts.push(
      h(
        'p.notice',
        { id: 'app-source' },
        'No GitHub App is configured. Registering one needs SHIPGATE_PUBLIC_URL (GitHub must reach the webhook): start shipgate with it, then come back here.',
      ),
    );
  } else {
    parts.push(
      h(
        'p',
        { id: 'app-source' },
        `No GitHub App is configured. Register one in one click: GitHub creates it from shipgate's manifest, with its webhook at ${app.public_url}, and sends you back here to install it.`,
      ),
      registerForm(message),
    );
  }
  replace(view.root, ...parts);
}
