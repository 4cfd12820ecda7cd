import { send } from '../api.js';
import { field, h, replace, select } from '../dom.js';
import { errorBox } from './submit-form.js';

/** @import { ReleaseDecision } from '../../types.js' */

/** The API's limit on a document sent as `content` (docs/release-gate.md, "Evidence read by content"). */
const MAX_CONTENT_BYTES = 10 * 1024 * 1024;

/** `sha256:<hex>` of the bytes, computed in the browser with Web Crypto. @param {ArrayBuffer} bytes */
export async function sha256Digest(bytes) {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Base64 of the bytes, in chunks (a 10 MiB spread would overflow the call stack). @param {ArrayBuffer} bytes */
function base64(bytes) {
  const view = new Uint8Array(bytes);
  let binary = '';
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return globalThis.btoa(binary);
}

/**
 * The evidence upload form of the release page (ADMIN, OPERATOR; the server decides): name, kind,
 * status, an optional file whose SHA-256 is computed here (and, if asked, the document itself sent
 * for shipgate to read), an optional URI. Hidden until `open(name)`; `uploaded` runs after a 201.
 * @param {ReleaseDecision} d
 * @param {() => Promise<void>} uploaded
 */
export function evidenceUploadForm(d, uploaded) {
  const name = h('input', { name: 'name', required: true, maxlength: 200, autocomplete: 'off' });
  const kind = h('input', { name: 'kind', required: true, pattern: '[A-Za-z0-9][A-Za-z0-9_.\\-]{0,63}', placeholder: 'e.g. sbom, tests' });
  const status = select('status', ['passed', 'failed'], 'passed');
  const file = h('input', { name: 'file', type: 'file' });
  const readIt = h('input', { name: 'send_content', type: 'checkbox' });
  const uri = h('input', { name: 'uri', type: 'url', placeholder: 'where the report lives (a URL)', maxlength: 2000 });
  const digest = h('output.muted', { id: 'evidence-digest', for: 'evidence-file' });
  file.id = 'evidence-file';
  const problem = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', id: 'upload-evidence-submit' }, 'Upload');
  /** @type {{ digest: string, bytes: ArrayBuffer } | null} */
  let chosen = null;

  file.addEventListener('change', async () => {
    chosen = null;
    replace(digest);
    const picked = file.files?.[0];
    if (!picked) return;
    const bytes = await picked.arrayBuffer();
    chosen = { digest: await sha256Digest(bytes), bytes };
    replace(digest, `SHA-256 of ${picked.name}: `, h('code', {}, chosen.digest));
  });

  const form = h(
    'form.card',
    { id: 'evidence-upload', hidden: true, 'aria-labelledby': 'evidence-upload-title' },
    h('h3', { id: 'evidence-upload-title' }, 'Upload evidence for this commit'),
    field('Name', name, 'What the gate’s required evidence names.'),
    field('Kind', kind, 'Letters, digits, _ . - (at most 64).'),
    field('Status', status, 'What the report concluded.'),
    field('File', file, 'Optional. Its SHA-256 is computed in this browser.'),
    digest,
    h(
      'label.field.checkbox',
      {},
      readIt,
      h('span.label', {}, 'Send the document so shipgate reads it (JUnit, SARIF, CycloneDX, SPDX, SLSA provenance; at most 10 MiB)'),
    ),
    field('URI', uri, 'Optional.'),
    h('div.actions', {}, submit, h('button.secondary', { type: 'button', onclick: () => (form.hidden = true) }, 'Cancel')),
    problem,
  );

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    replace(problem);
    try {
      if (file.files?.[0] && !chosen) throw new Error('The file is still being read; try again in a moment.');
      if (readIt.checked && !chosen) throw new Error('Choose the file to send.');
      if (readIt.checked && chosen && chosen.bytes.byteLength > MAX_CONTENT_BYTES) throw new Error('The document is over 10 MiB.');
      await send('POST', 'releases/evidence', {
        repo_root: d.repo_root,
        commit_sha: d.commit_sha,
        name: name.value.trim(),
        kind: kind.value.trim(),
        status: status.value,
        digest: chosen?.digest ?? null,
        uri: uri.value.trim() || null,
        produced_at: new Date().toISOString(),
        ...(readIt.checked && chosen ? { content: base64(chosen.bytes) } : {}),
      });
      form.hidden = true;
      await uploaded();
    } catch (error) {
      replace(problem, errorBox(error));
    } finally {
      submit.disabled = false;
    }
  });

  /** Shows the form for an evidence name (empty: the person types it). @param {string} evidenceName */
  function open(evidenceName) {
    form.hidden = false;
    name.value = evidenceName;
    if (!kind.value) kind.value = evidenceName.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 64);
    form.scrollIntoView({ block: 'start' });
    (evidenceName ? kind : name).focus();
  }
  return { element: form, open };
}
