// The gate editor's form: one control per gate field (docs/release-gate.md, "Release gate": gate fields), checked in
// the browser by the rules the API applies, and the API's own 422 issues shown next to the field they name.
import { h, replace, select } from '../dom.js';

/** @import { Gate } from '../../types.js' */

/**
 * @typedef {'lines' | 'entries' | 'bool' | 'int' | 'json' | 'json-list' | 'choice'} FieldKind
 * @typedef {{ path: string[], kind: FieldKind, label: string, hint?: string, min?: number, max?: number, options?: string[] }} GateField
 * @typedef {{ path: string, msg: string }} FieldProblem
 */

const DAY = 86400;
const NAME_MAX = 200;
const LIST_MAX = 100;

/** Every gate field, in the order of docs/release-gate.md. */
export const GATE_FIELDS = /** @type {GateField[]} */ ([
  {
    path: ['required_checks'],
    kind: 'entries',
    label: 'Required checks',
    hint: 'One per line: a check run name (any source may report it), or {"name": …, "app": "github-actions"} pinned to the GitHub App (slug or numeric id) that must report it.',
  },
  { path: ['skipped_is_success'], kind: 'bool', label: 'A required check GitHub reports as skipped or neutral counts as passing' },
  {
    path: ['required_evidence'],
    kind: 'entries',
    label: 'Required evidence',
    hint: 'One per line: a name (e.g. sbom), or a JSON object {"name": …, "format": …, "rules": {…}} whose document must keep the rules.',
  },
  { path: ['require_reviewed_release'], kind: 'bool', label: 'Require a reviewed release stage for every commit' },
  { path: ['evidence_max_age_seconds'], kind: 'int', label: 'Evidence max age (seconds)', min: 60, max: 3650 * DAY },
  { path: ['attestation_max_age_seconds'], kind: 'int', label: 'Attestation max age (seconds)', min: 60, max: 3650 * DAY },
  { path: ['separation_of_duties'], kind: 'bool', label: 'Separation of duties (an approver may not promote their own work)' },
  { path: ['public_badge'], kind: 'bool', label: 'Public badge shows the decision' },
  { path: ['deployment_wait_seconds'], kind: 'int', label: 'Deployment wait (seconds)', min: 0, max: DAY, hint: '0 answers at once.' },
  {
    path: ['environments'],
    kind: 'json',
    label: 'Environments',
    hint: 'A JSON object, e.g. {"production": {"require_attested": true}}.',
  },
  { path: ['agents', 'accounts'], kind: 'lines', label: 'Agent accounts', hint: 'GitHub logins, one per line.' },
  { path: ['agents', 'coauthor_emails'], kind: 'lines', label: 'Agent co-author e-mails', hint: 'One per line.' },
  { path: ['agents', 'bots_are_agents'], kind: 'bool', label: 'Every bot account is an agent' },
  { path: ['agents', 'not_agents'], kind: 'lines', label: 'Never agents', hint: 'Logins, one per line.' },
  {
    path: ['agent_changes', 'required_human_approvals'],
    kind: 'int',
    label: 'Human approvals an agent’s pull request needs',
    min: 0,
    max: 10,
  },
  { path: ['agent_changes', 'dismiss_stale_approvals'], kind: 'bool', label: 'Only an approval of the current head counts' },
  { path: ['agent_changes', 'require_governed_work'], kind: 'bool', label: 'Agent commits need governed work bound to them' },
  // docs/release-gate.md, "Protected paths": on by default, turned off only here, explicitly.
  { path: ['protected_paths', 'enabled'], kind: 'bool', label: 'An agent’s change to a protected path needs a maintainer’s approval' },
  { path: ['protected_paths', 'paths'], kind: 'lines', label: 'Protected paths', hint: 'gitignore-style globs, one per line.' },
  { path: ['protected_paths', 'approvals'], kind: 'int', label: 'Approvals a protected path needs', min: 1, max: 10 },
  {
    path: ['protected_paths', 'permission'],
    kind: 'choice',
    label: 'Least permission of those approvals',
    options: ['maintain', 'admin'],
  },
  {
    path: ['rules'],
    kind: 'json-list',
    label: 'Rules',
    hint: 'A JSON list, in order (docs/release-gate.md, "Rules"), e.g. [{"name": "infra needs SRE", "if": {"paths": ["infra/**"]}, "require": {"approvals": 2, "approvers": {"teams": ["acme/sre"]}}}].',
  },
]);

/** The gate each fieldset was last filled from: fields the form has no control for are saved as they were. */
const filledFrom = /** @type {WeakMap<Element, Gate>} */ (new WeakMap());

/** @type {Partial<Record<FieldKind, number>>} */
const TEXTAREA_ROWS = { lines: 3, 'json-list': 10 };

const key = (/** @type {string[]} */ path) => path.join('.');
const controlId = (/** @type {string[]} */ path) => `gate-${path.join('-')}`;

/**
 * @param {unknown} gate
 * @param {string[]} path
 */
function valueAt(gate, path) {
  return path.reduce((value, part) => /** @type {Record<string, unknown>} */ (value ?? {})[part], gate);
}

/** @param {number} seconds */
export function humanSeconds(seconds) {
  const units = /** @type {[number, string][]} */ ([
    [DAY, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ]);
  const [size, unit] = units.find(([size]) => seconds >= size && seconds % size === 0) ?? [1, 'second'];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * The form's controls for every field the API gave (a field this server does not know gets none, and is never sent),
 * filled from `gate`; `disabled` for a reader who may not change it.
 * @param {Gate} gate
 * @param {boolean} disabled
 */
export function gateFieldset(gate, disabled) {
  const fieldset = h('fieldset.gate-fields', { disabled }, h('legend', {}, 'Gate fields'));
  for (const field of GATE_FIELDS.filter((f) => valueAt(gate, f.path) !== undefined)) {
    const id = controlId(field.path);
    const problem = h('span.error.field-problem', { id: `${id}-problem`, dataset: { field: key(field.path) } });
    const hintId = `${id}-hint`;
    const control =
      field.kind === 'bool'
        ? h('input', { type: 'checkbox', id, name: key(field.path) })
        : field.kind === 'int'
          ? h('input', { type: 'number', id, name: key(field.path), min: field.min, max: field.max, step: 1, required: true })
          : field.kind === 'choice'
            ? Object.assign(select(key(field.path), field.options ?? [], ''), { id })
            : h('textarea', { id, name: key(field.path), rows: TEXTAREA_ROWS[field.kind] ?? 4, spellcheck: 'false' });
    control.setAttribute('aria-describedby', `${hintId} ${id}-problem`);
    const hint = field.kind === 'int' ? h('span.hint', { id: hintId }) : h('span.hint', { id: hintId }, field.hint ?? '');
    fieldset.append(
      field.kind === 'bool'
        ? h('div.field.check-field', {}, h('label', { for: id }, control, ' ', field.label), hint, problem)
        : h('div.field', {}, h('label.label', { for: id }, field.label), control, hint, problem),
    );
  }
  fillGate(fieldset, gate);
  return fieldset;
}

/**
 * Puts a gate's values into the controls (a version from the history, or the one in force).
 * @param {HTMLElement} root
 * @param {Gate} gate
 */
export function fillGate(root, gate) {
  filledFrom.set(root, gate);
  for (const field of GATE_FIELDS) {
    const control = /** @type {HTMLInputElement | HTMLTextAreaElement | null} */ (root.querySelector(`#${controlId(field.path)}`));
    if (!control) continue;
    const value = valueAt(gate, field.path);
    if (field.kind === 'bool') /** @type {HTMLInputElement} */ (control).checked = Boolean(value);
    else if (field.kind === 'int' || field.kind === 'choice') control.value = String(value);
    else if (field.kind === 'json') control.value = JSON.stringify(value ?? {}, null, 2);
    else if (field.kind === 'json-list') control.value = JSON.stringify(value ?? [], null, 2);
    else
      control.value = /** @type {unknown[]} */ (value ?? [])
        .map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
        .join('\n');
  }
  updateHints(root);
}

/** @param {HTMLElement} root */
export function updateHints(root) {
  for (const field of GATE_FIELDS.filter((f) => f.kind === 'int')) {
    const id = controlId(field.path);
    const seconds = Number(/** @type {HTMLInputElement | null} */ (root.querySelector(`#${id}`))?.value);
    const hint = root.querySelector(`#${id}-hint`);
    if (hint)
      replace(
        hint,
        [field.hint, key(field.path).endsWith('seconds') && Number.isInteger(seconds) && seconds > 0 ? `= ${humanSeconds(seconds)}.` : '']
          .filter(Boolean)
          .join(' '),
      );
  }
}

/**
 * The list a textarea holds, checked as the API checks names (trimmed, 1 to 200 characters, unique, at most 100).
 * @param {string} text
 * @param {boolean} entries lines starting with `{` are JSON entries
 * @param {FieldProblem[]} problems
 * @param {string} path
 */
function readLines(text, entries, problems, path) {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const items = lines.map((line, i) => {
    if (!entries || !line.startsWith('{')) return line;
    try {
      return JSON.parse(line);
    } catch {
      problems.push({ path, msg: `Line ${i + 1} is not a JSON object.` });
      return line;
    }
  });
  const names = items.map((item) => (typeof item === 'string' ? item : String(item?.name ?? '')));
  if (items.length > LIST_MAX) problems.push({ path, msg: `At most ${LIST_MAX} entries.` });
  if (names.some((name) => name.length > NAME_MAX)) problems.push({ path, msg: `A name has at most ${NAME_MAX} characters.` });
  if (new Set(names).size !== names.length) problems.push({ path, msg: 'Names must be unique.' });
  return items;
}

/**
 * The gate the form describes, and what the browser finds wrong with it (the API checks again on save).
 * @param {HTMLFormElement} form
 * @returns {{ gate: Record<string, unknown>, problems: FieldProblem[] }}
 */
export function readGate(form) {
  const filled = filledFrom.get(/** @type {Element} */ (form.querySelector('.gate-fields')));
  /** @type {Record<string, any>} */
  const gate = filled ? JSON.parse(JSON.stringify(filled)) : {};
  /** @type {FieldProblem[]} */
  const problems = [];
  for (const field of GATE_FIELDS) {
    const path = key(field.path);
    const control = /** @type {HTMLInputElement | HTMLTextAreaElement | null} */ (form.querySelector(`#${controlId(field.path)}`));
    if (!control) continue;
    /** @type {unknown} */
    let value;
    if (field.kind === 'bool') value = /** @type {HTMLInputElement} */ (control).checked;
    else if (field.kind === 'int') {
      value = control.value.trim() === '' ? NaN : Number(control.value);
      const n = /** @type {number} */ (value);
      if (!Number.isInteger(n)) problems.push({ path, msg: 'A whole number is needed.' });
      else if (n < (field.min ?? -Infinity) || n > (field.max ?? Infinity))
        problems.push({ path, msg: `Between ${field.min} and ${field.max}.` });
    } else if (field.kind === 'choice') value = control.value;
    else if (field.kind === 'json' || field.kind === 'json-list') {
      const list = field.kind === 'json-list';
      try {
        value = JSON.parse(control.value.trim() || (list ? '[]' : '{}'));
        if (list && !Array.isArray(value)) problems.push({ path, msg: 'A JSON list is needed.' });
        else if (!list && (value === null || typeof value !== 'object' || Array.isArray(value)))
          problems.push({ path, msg: 'A JSON object is needed.' });
      } catch (error) {
        problems.push({ path, msg: `Not valid JSON: ${/** @type {Error} */ (error).message}` });
      }
    } else value = readLines(control.value, field.kind === 'entries', problems, path);
    const [top, sub] = field.path;
    if (sub) gate[top] = { ...gate[top], [sub]: value };
    else gate[top] = value;
  }
  return { gate, problems };
}

/**
 * Shows problems next to their fields as `location: message`; those naming no field go to `rest`. A 422 issue's `loc`
 * (after `body`) names the field it starts with.
 * @param {HTMLElement} root
 * @param {FieldProblem[]} problems
 * @param {HTMLElement} rest
 */
export function showProblems(root, problems, rest) {
  for (const slot of root.querySelectorAll('.field-problem')) replace(/** @type {HTMLElement} */ (slot));
  for (const control of root.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  replace(rest);
  const leftover = [];
  for (const problem of problems) {
    const field = GATE_FIELDS.filter((f) => problem.path === key(f.path) || problem.path.startsWith(`${key(f.path)}.`)).sort(
      (a, b) => b.path.length - a.path.length,
    )[0];
    if (!field) {
      leftover.push(problem);
      continue;
    }
    const id = controlId(field.path);
    root.querySelector(`#${id}`)?.setAttribute('aria-invalid', 'true');
    root.querySelector(`#${id}-problem`)?.append(h('span.issue', {}, `${problem.path}: ${problem.msg}`));
  }
  if (leftover.length)
    rest.append(
      h(
        'div.error',
        { role: 'alert' },
        leftover.map((p) => h('p', {}, p.path ? `${p.path}: ${p.msg}` : p.msg)),
      ),
    );
}
