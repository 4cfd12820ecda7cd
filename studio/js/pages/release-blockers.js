import { h, link } from '../dom.js';
import { durationsInText } from '../format.js';
import { hasRole } from '../session.js';

/** @import { ReleaseDecision } from '../../types.js' */
/** @typedef {ReleaseDecision['blockers'][number]} Blocker */

/** The part of a component after its kind: `evidence:sbom:rule` → `sbom`, `check:ci` → `ci`. @param {string} component */
const subject = (component) => component.split(':')[1] ?? '';

/**
 * What a person does about a blocker, in their words (docs/release-gate.md lists the codes).
 * `upload` names the evidence whose upload clears it, when uploading does.
 * @param {Blocker} b
 * @returns {{ text: string, upload?: string, href?: [string, string] }}
 */
export function blockerAction(b) {
  const name = subject(b.component);
  switch (b.code) {
    case 'no_evidence':
      return { text: 'Run CI on this commit, upload evidence for it, or run a workflow bound to it.', upload: '' };
    case 'required_check_missing':
      return { text: `Run the check “${name}” on this commit; its result arrives from GitHub.` };
    case 'required_check_pending':
      return { text: `Wait for the check “${name}” to finish, then re-evaluate.` };
    case 'required_check_failed':
      return { text: `Fix what the check “${name}” reports and push a commit where it passes.` };
    case 'required_check_wrong_source':
      return { text: `Find out who reported “${name}”: only the App the gate names counts. Have that App run it on this commit.` };
    case 'required_evidence_missing':
      return { text: `Upload the evidence “${name}” for this commit.`, upload: name };
    case 'required_evidence_failed':
      return { text: `Fix what “${name}” reports, then upload passing evidence.`, upload: name };
    case 'evidence_content_failed':
      return { text: `Fix what the document of “${name}” reports, then upload the new document.`, upload: name };
    case 'runtime_evidence_stale':
      return b.component.startsWith('evidence:')
        ? { text: `Produce “${name}” again for this commit and upload it.`, upload: name }
        : { text: `Run the check “${name}” again on this commit.` };
    case 'no_execution_evidence_bound_to_snapshot':
      return { text: 'Run a workflow bound to this commit (repository and commit set).', href: ['#/workflows/new', 'New workflow'] };
    case 'workflow_incomplete':
    case 'release_not_admitted':
      return b.component.startsWith('workflow:')
        ? { text: 'Open the workflow and see the stage that stopped it.', href: [`#/workflows/${name}`, 'Open the workflow'] }
        : { text: 'Open the bound workflows below and see which stage stopped them.' };
    case 'execution_non_compliant':
    case 'certificate_invalid':
      return b.component.startsWith('execution:')
        ? { text: 'Open the execution and see why it does not count.', href: [`#/executions/${name}`, 'Open the execution'] }
        : { text: 'Open the bound executions below and see why they do not count.' };
    case 'agent_change_ungoverned':
    case 'human_approval_missing':
      return { text: 'Ask a person with write access who did not write this change to approve the pull request.' };
    case 'agent_provenance_unknown':
      return b.waitable
        ? { text: 'Wait while shipgate reads who made this pull request, then re-evaluate.' }
        : { text: 'Ask an administrator to check the GitHub App can read this pull request.' };
    default:
      return { text: 'See what the API says below.' };
  }
}

/**
 * The evidence names the gate requires (`required_evidence`: a name, or an entry with its rules).
 * @param {ReleaseDecision['gate']} gate
 */
export function requiredEvidenceNames(gate) {
  return gate.required_evidence.map((entry) => (typeof entry === 'string' ? entry : entry.name));
}

/**
 * With nothing recorded, the API's one `no_evidence` blocker stands for every required evidence:
 * one actionable item per name, its upload prefilled (the blocker itself is unchanged).
 * @param {string[]} missing
 * @param {((name: string) => void) | null | false} openUpload
 */
function missingEvidenceItems(missing, openUpload) {
  if (missing.length === 0) return null;
  return h(
    'ul.missing-evidence',
    {},
    missing.map((name) =>
      h(
        'li',
        { dataset: { evidence: name } },
        `Upload the evidence “${name}” for this commit.`,
        openUpload
          ? [
              ' ',
              h(
                'button.upload-evidence',
                { type: 'button', 'aria-label': `Upload evidence ${name}`, onclick: () => openUpload(name) },
                'Upload evidence',
              ),
            ]
          : null,
      ),
    ),
  );
}

/**
 * The blockers, each as the action a person takes (an "Upload evidence" button where uploading
 * clears it); the API's own remediation stays in a collapsed disclosure (auditors quote it).
 * @param {ReleaseDecision['blockers']} blockers
 * @param {((name: string) => void) | null} [openUpload] opens the upload form for a name (ADMIN, OPERATOR)
 * @param {string[]} [requiredEvidence] the gate's required evidence names (listed under `no_evidence`)
 */
export function blockersList(blockers, openUpload = null, requiredEvidence = []) {
  if (blockers.length === 0) return h('p.ok', { id: 'blockers' }, 'No blockers.');
  const canUpload = openUpload && hasRole('ADMIN', 'OPERATOR');
  return h(
    'ul.blockers',
    { id: 'blockers' },
    blockers.map((b) => {
      const action = blockerAction(b);
      // Nothing recorded: one upload per required name below instead of one without a name.
      if (b.code === 'no_evidence' && requiredEvidence.length > 0) delete action.upload;
      return h(
        'li.blocker',
        { dataset: { code: b.code } },
        h(
          'div',
          {},
          h('code', {}, b.code),
          ' ',
          h('span.muted', {}, b.component),
          b.waitable ? [' ', h('span.pill.waitable', { title: 'Time alone can clear it: ask again later.' }, 'waiting')] : null,
        ),
        h('p.reason', {}, durationsInText(b.reason)),
        h(
          'p.action',
          {},
          action.text,
          canUpload && action.upload !== undefined
            ? [' ', h('button.upload-evidence', { type: 'button', onclick: () => openUpload(action.upload ?? '') }, 'Upload evidence')]
            : null,
          action.href ? [' ', link(...action.href)] : null,
        ),
        b.code === 'no_evidence' ? missingEvidenceItems(requiredEvidence, canUpload ? openUpload : null) : null,
        h(
          'details.api-remediation',
          {},
          h('summary', {}, 'Remediation as the API states it'),
          h('p.remediation', {}, b.remediation_suggestion),
        ),
      );
    }),
  );
}
