import { download } from '../api.js';
import { h, pill, table, when } from '../dom.js';

/** @import { EvidenceSummary, UploadedEvidence } from '../../types.js' */

/** @param {number} n @param {string} one @param {string} [many] */
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What shipgate read from a document, in one line (as the Action's job summary says it).
 * @param {EvidenceSummary} s
 */
export function summaryLine(s) {
  switch (s.format) {
    case 'junit':
      return [
        `${plural(s.total, 'test')}, ${s.failed} failed`,
        s.errored ? `${s.errored} errored` : null,
        s.skipped ? `${s.skipped} skipped` : null,
      ]
        .filter(Boolean)
        .join(', ');
    case 'sarif':
      return `${plural(s.results, 'result')}: ${s.by_level.error} error, ${s.by_level.warning} warning, ${s.by_level.note} note${s.by_level.none ? `, ${s.by_level.none} none` : ''}`;
    case 'cyclonedx':
    case 'spdx':
      return `${s.format === 'spdx' ? 'SPDX' : 'CycloneDX'} ${s.spec_version}: ${plural(s.components, 'component')}, ${plural(s.licenses.length, 'licence')}, ${s.unlicensed_count} without a licence`;
    case 'provenance':
      return `builder ${s.builder_id}, build type ${s.build_type}, ${plural(s.subjects_count, 'subject')}, ${
        s.signatures === 0 ? 'unsigned' : `signature verified with ${plural(s.verified_keys.length, 'named key')}`
      }`;
  }
}

/**
 * The names behind the line: failing tests, rules with most results, licences, source commits.
 * @param {EvidenceSummary} s
 * @returns {[string, string[]][]}
 */
function summaryLists(s) {
  switch (s.format) {
    case 'junit':
      return [['Failing', s.failing]];
    case 'sarif':
      return [
        [
          'Rules with most results',
          [...s.by_rule]
            .sort((a, b) => b.count - a.count)
            .slice(0, 20)
            .map((r) => `${r.rule_id} (${r.level}): ${r.count}`),
        ],
      ];
    case 'cyclonedx':
    case 'spdx':
      return [
        ['Licences', s.licenses.map((l) => `${l.expression} (${l.count})`)],
        ['Without a licence', s.unlicensed],
      ];
    case 'provenance':
      return [
        [
          'Subjects',
          s.subjects.map(
            (subject) =>
              `${subject.name} ${Object.entries(subject.digest)
                .map(([alg, hex]) => `${alg}:${hex.slice(0, 12)}`)
                .join(' ')}`,
          ),
        ],
        ['Source commits', s.source_commits],
      ];
  }
}

/**
 * The document's download: fetched with the session's key (never in a URL) and saved as the
 * attachment the service names; only ever from this origin.
 * @param {UploadedEvidence} e
 */
function downloadButton(e) {
  const doc = e.document;
  if (!doc) return null;
  const url = new URL(doc.download_url, location.origin);
  const status = h('span.muted');
  const button = h(
    'button.secondary.download-document',
    {
      type: 'button',
      onclick: async () => {
        button.disabled = true;
        try {
          const name = await download(url.pathname + url.search, `${e.name}.document`);
          status.textContent = ` Downloaded ${name}.`;
        } catch (error) {
          status.textContent = ` ${error instanceof Error ? error.message : String(error)}`;
        } finally {
          button.disabled = false;
        }
      },
    },
    `Download the document (${doc.media_type}, ${plural(doc.size, 'byte')})`,
  );
  return h('p', {}, button, status);
}

/**
 * One evidence item's document: what it said, each rule it was judged by, and its download.
 * @param {UploadedEvidence} e
 */
function evidenceContent(e) {
  const s = e.summary;
  if (!s) return null;
  const rules = e.rule_results ?? [];
  return h(
    'div.evidence-content',
    { 'data-evidence': e.name },
    h('h4', {}, e.name, ' ', h('span.muted', {}, `(${e.format ?? s.format})`)),
    h('p.evidence-summary', {}, summaryLine(s)),
    summaryLists(s)
      .filter(([, items]) => items.length > 0)
      .map(([title, items]) =>
        h(
          'div.evidence-list',
          {},
          h('p', {}, `${title}:`),
          h(
            'ul',
            {},
            items.map((item) => h('li', {}, item)),
          ),
        ),
      ),
    rules.length
      ? table(
          ['Rule', 'Result', 'Detail'],
          rules.map((r) => [
            h('code', {}, r.rule),
            pill(r.passed ? 'passed' : 'failed'),
            r.passed ? r.detail : h('div', {}, h('p.reason', {}, r.detail), h('p.remediation', {}, 'Fix: ', r.remediation)),
          ]),
          'grid rule-results',
        )
      : h('p.muted', {}, 'No rule reads this document.'),
    downloadButton(e),
  );
}

/**
 * Uploaded evidence: the table, then each document's summary and rule results.
 * @param {UploadedEvidence[]} evidence
 */
export function evidenceSection(evidence) {
  if (evidence.length === 0) return h('p.muted', {}, 'None uploaded.');
  return h(
    'div',
    { id: 'uploaded-evidence' },
    table(
      ['Kind', 'Name', 'Status', 'Read', 'Digest', 'Produced'],
      evidence.map((e) => [
        e.kind,
        e.name,
        pill(e.status),
        e.summary ? summaryLine(e.summary) : '—',
        e.digest ? h('code.digest', {}, e.digest) : '—',
        when(e.produced_at),
      ]),
    ),
    evidence.map(evidenceContent),
  );
}
