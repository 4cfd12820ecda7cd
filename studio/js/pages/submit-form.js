import { ApiError } from '../api.js';
import { h, replace } from '../dom.js';

/** @import { PolicyDenial } from '../../types.js' */

/**
 * The server's refusal, with the denied permissions listed one per line.
 * @param {unknown} error what a request threw (an ApiError, or a network failure)
 */
export function errorBox(error) {
  const box = h('div.error', { role: 'alert' });
  const denial =
    error instanceof ApiError && error.detail && typeof error.detail === 'object'
      ? /** @type {Partial<PolicyDenial>} */ (error.detail)
      : undefined;
  const denied = denial?.denied;
  if (Array.isArray(denied)) {
    box.append(
      h('p', {}, denial?.message),
      h(
        'ul',
        {},
        denied.map((d) => h('li', {}, `${d.permission}: ${d.reason}`, d.detail ? ` — ${d.detail}` : '')),
      ),
    );
  } else box.append(h('p', {}, /** @type {Error} */ (error).message));
  return box;
}

/**
 * Sends a form once per press: the button is disabled while `send` runs; a refusal is shown in
 * `problem` and the button enabled again (`send` moves to the next page on success).
 * @param {HTMLFormElement} form
 * @param {HTMLButtonElement} submit
 * @param {HTMLElement} problem
 * @param {() => Promise<void>} send
 */
export function onSubmit(form, submit, problem, send) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    replace(problem);
    try {
      await send();
    } catch (error) {
      replace(problem, errorBox(error));
      submit.disabled = false;
    }
  });
}
