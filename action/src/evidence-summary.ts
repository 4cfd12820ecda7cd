import type { EvidenceSummary } from './shipgate-types.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line for what shipgate read from a document, e.g. "412 tests, 3 failed". */
export function summaryLine(summary: EvidenceSummary): string {
  switch (summary.format) {
    case 'junit': {
      const extra = [summary.errored && `${summary.errored} errored`, summary.skipped && `${summary.skipped} skipped`].filter(Boolean);
      return [`${plural(summary.total, 'test')}, ${summary.failed} failed`, ...extra].join(', ');
    }
    case 'sarif': {
      const l = summary.by_level;
      const levels = [`${l.error} error`, `${l.warning} warning`, `${l.note} note`, ...(l.none ? [`${l.none} none`] : [])];
      return `${plural(summary.results, 'result')}: ${levels.join(', ')}`;
    }
    case 'cyclonedx':
    case 'spdx':
      return (
        `${summary.format === 'spdx' ? 'SPDX' : 'CycloneDX'} ${summary.spec_version} SBOM: ${plural(summary.components, 'component')}, ` +
        `${plural(summary.licenses.length, 'licence')}, ${summary.unlicensed_count} without a licence`
      );
    case 'provenance': {
      const signed =
        summary.signatures === 0
          ? 'unsigned'
          : summary.verified_keys.length > 0
            ? `signature verified with ${plural(summary.verified_keys.length, 'key')} the gate names`
            : 'signature not verified with any key the gate names';
      return `provenance from builder ${summary.builder_id}, build type ${summary.build_type}, ${plural(summary.subjects_count, 'subject')}, ${signed}`;
    }
  }
}

/** The names behind the line, for the job summary: failing tests, noisiest rules, unlicensed components, source commits. */
export function summaryDetails(summary: EvidenceSummary): { title: string; items: string[] } | undefined {
  const list = (title: string, items: string[], total = items.length) =>
    items.length === 0 ? undefined : { title, items: total > items.length ? [...items, `… and ${total - items.length} more`] : items };
  switch (summary.format) {
    case 'junit':
      return list('Failing', summary.failing, summary.failed + summary.errored);
    case 'sarif': {
      const top = [...summary.by_rule].sort((a, b) => b.count - a.count).slice(0, 20);
      return list(
        'Rules with most results',
        top.map((r) => `${r.rule_id} (${r.level}): ${r.count}`),
      );
    }
    case 'cyclonedx':
    case 'spdx':
      return list('Without a licence', summary.unlicensed, summary.unlicensed_count);
    case 'provenance':
      return list('Source commits', summary.source_commits);
  }
}
