// #/repos/<owner>/<repo>/gate: a repository's release gate (docs/release-gate.md, "Release gate"). ADMIN and
// POLICY_AUTHOR edit it (every field, checked as the API checks it, the API's 422 shown by the field it names); every
// role sees the YAML to commit as `.github/shipgate.yml` and the version history with the diff between two versions.
// Editors try a draft on the recent decisions before saving it (gate-editor-simulation.js).
import { getJson, request } from '../api.js';
import { cell, h, link, replace, select, when } from '../dom.js';
import { hasRole } from '../session.js';
import { diffView } from './gate-editor-diff.js';
import { fillGate, gateFieldset, readGate, showProblems, updateHints } from './gate-editor-form.js';
import { gateYaml } from './gate-editor-yaml.js';
import { gateIssues, simulationSection } from './gate-editor-simulation.js';
import { errorBox } from './submit-form.js';

/** @import { GateVersion, GateVersionList, View } from '../../types.js' */

/**
 * @param {View} view
 * @param {Record<string, string>} params
 * @param {string} [saved] what the last save did, shown once after the page is drawn again
 */
export async function gateEditorPage(view, { owner, repo }, saved) {
  const repoRoot = `${owner}/${repo}`;
  const base = `releases/gates/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  /** @type {Promise<GateVersion>} */
  const inForce = getJson(base, { signal: view.signal });
  /** @type {Promise<GateVersionList>} */
  const recorded = getJson(`${base}/versions?limit=100`, { signal: view.signal });
  const [current, list] = await Promise.all([inForce, recorded]);
  const editor = hasRole('ADMIN', 'POLICY_AUTHOR');

  const status = h('p.notice', { role: 'status', id: 'gate-status' }, saved ?? '');
  const formProblems = h('div', { id: 'gate-form-problems' });
  const yaml = h('code', {});
  const fields = gateFieldset(current.gate, !editor);
  const submit = h('button', { type: 'submit' }, 'Save a new version');
  const form = h('form', { id: 'gate-form', novalidate: true }, fields, formProblems, editor ? submit : null);

  const preview = () => {
    updateHints(fields);
    const { gate, problems } = readGate(form);
    showProblems(form, problems, formProblems);
    if (!problems.length) replace(yaml, gateYaml(gate));
    return { gate, problems };
  };
  form.addEventListener('input', preview);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { gate, problems } = preview();
    if (problems.length) {
      replace(status, 'Not saved: fix the fields marked in the form.');
      return;
    }
    submit.disabled = true;
    replace(status, 'Saving…');
    try {
      const response = await request('PUT', base, { body: gate, signal: view.signal });
      /** @type {GateVersion} */
      const version = await response.json();
      const message =
        response.status === 201
          ? `Saved version ${version.version}.`
          : `Nothing to save: version ${version.version} already holds this gate.`;
      await gateEditorPage(view, { owner, repo }, message);
    } catch (error) {
      submit.disabled = false;
      replace(status, 'Not saved.');
      const issues = gateIssues(error);
      if (issues) showProblems(form, issues, formProblems);
      else replace(formProblems, errorBox(error));
    }
  });

  replace(
    view.root,
    h('h1', {}, `Release gate of ${repoRoot}`),
    h('p', {}, versionLine(current), ' ', link(`#/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, 'Repository overview')),
    editor ? null : h('p.muted', {}, 'Only an ADMIN or a POLICY_AUTHOR may change the gate; it is shown here read-only.'),
    status,
    h('section', { 'aria-labelledby': 'gate-form-title' }, h('h2', { id: 'gate-form-title' }, 'Gate'), form),
    // The draft is tried where it is saved: by those who may save it.
    editor ? simulationSection(base, preview, (issues) => showProblems(form, issues, formProblems), view.signal) : null,
    h(
      'section',
      { 'aria-labelledby': 'gate-yaml-title' },
      h('h2', { id: 'gate-yaml-title' }, 'As .github/shipgate.yml'),
      h(
        'p.muted',
        {},
        'Committed to the default branch, this file sets the same gate through the GitHub App. The preview follows the form.',
      ),
      h('pre', { id: 'gate-yaml', tabindex: 0, 'aria-label': 'YAML preview' }, yaml),
      h('button.secondary', { type: 'button', onclick: () => copy(yaml.textContent ?? '', status) }, 'Copy YAML'),
    ),
    history(
      list,
      editor
        ? (gate) => (fillGate(fields, gate), preview(), replace(status, 'Loaded into the form; save to make it the newest version.'))
        : null,
    ),
  );
  preview();
}

/** @param {GateVersion} v */
function versionLine(v) {
  if (v.version === 0) return 'In force: the built-in default (version 0); no gate was recorded yet.';
  const by =
    /** @type {{ created_by_name?: string | null }} */ (v).created_by_name ?? (v.source === 'config_file' ? '.github/shipgate.yml' : null);
  return `In force: version ${v.version}, set through ${v.source === 'api' ? 'the API' : 'the gate file'}${by ? ` by ${by}` : ''} at ${when(v.created_at)}.`;
}

/**
 * @param {string} text
 * @param {HTMLElement} status
 */
async function copy(text, status) {
  try {
    await window.navigator.clipboard.writeText(text);
    replace(status, 'YAML copied.');
  } catch {
    replace(status, 'The browser refused the clipboard: select the YAML and copy it.');
  }
}

/**
 * The recorded versions and the diff between two of them (by default the newest and the one before it).
 * @param {GateVersionList} list
 * @param {((gate: GateVersion['gate']) => void) | null} load puts a version into the form (editors only)
 */
function history(list, load) {
  const section = h('section', { 'aria-labelledby': 'gate-history-title' }, h('h2', { id: 'gate-history-title' }, 'Version history'));
  const versions = list.versions;
  if (!versions.length) {
    section.append(h('p.muted', {}, 'No version recorded yet: the built-in default is in force. Save the form to record version 1.'));
    return section;
  }
  const headers = ['Version', 'Set through', 'When', 'Digest', ''];
  const rows = versions.map((v) =>
    h(
      'tr',
      { dataset: { version: String(v.version) } },
      [
        `v${v.version}`,
        v.source === 'api' ? 'API' : 'gate file',
        when(v.created_at),
        h('code', { title: v.digest }, v.digest.slice(0, 12)),
        load ? h('button.secondary', { type: 'button', onclick: () => load(v.gate) }, `Edit from v${v.version}`) : '',
      ].map((content, i) => cell(headers[i], content)),
    ),
  );
  section.append(
    h(
      'div.table-box',
      {},
      h(
        'table.grid',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            headers.map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h('tbody', {}, rows),
      ),
    ),
  );
  if (list.next_before)
    section.append(h('p.muted', {}, `The 100 newest versions are listed; older ones are below version ${list.next_before}.`));
  if (versions.length < 2) {
    section.append(h('p.muted', { id: 'gate-diff' }, `Version ${versions[0].version} is the first recorded version.`));
    return section;
  }
  const options = versions.map((v) => /** @type {[string, string]} */ ([String(v.version), `v${v.version}`]));
  const from = select('from', options, String(versions[1].version));
  const to = select('to', options, String(versions[0].version));
  from.id = 'gate-diff-from';
  to.id = 'gate-diff-to';
  const byNumber = (/** @type {string} */ n) => /** @type {GateVersion} */ (versions.find((v) => String(v.version) === n));
  let diff = diffView(byNumber(from.value), byNumber(to.value));
  const redraw = () => {
    const next = diffView(byNumber(from.value), byNumber(to.value));
    diff.replaceWith(next);
    diff = next;
  };
  from.addEventListener('change', redraw);
  to.addEventListener('change', redraw);
  section.append(
    h(
      'div.inline',
      {},
      h('label.field', { for: 'gate-diff-from' }, h('span.label', {}, 'From'), from),
      h('label.field', { for: 'gate-diff-to' }, h('span.label', {}, 'To'), to),
    ),
    diff,
  );
  return section;
}
