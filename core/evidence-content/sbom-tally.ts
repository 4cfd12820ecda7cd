import { SBOM_EXPRESSION_LIMIT, SBOM_LICENSE_LIMIT, SUMMARY_NAME_LIMIT, type SbomSummary } from './evidence-summary.js';

const TEXT_LIMIT = 300;

function clip(text: string): string {
  return text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 1)}…` : text;
}

/** A component's name as the summary shows it: `group/name@version` (CycloneDX) or `name@version` (SPDX). */
export function componentLabel(name: string, version?: string, group?: string): string {
  return clip(`${group ? `${group}/` : ''}${name}${version ? `@${version}` : ''}`);
}

/**
 * Builds an SBOM summary one component at a time. A component listing several licences is filed under each (they
 * all apply, so a denied one among them denies the component); one listing none is unlicensed.
 */
export class SbomTally {
  private components = 0;
  private readonly licenses = new Map<string, { expression: string; components: string[]; count: number }>();
  /** More distinct licences than SBOM_LICENSE_LIMIT, or one longer than SBOM_EXPRESSION_LIMIT: the rest cannot be judged. */
  private licensesTruncated = false;
  private readonly unlicensed: string[] = [];
  private unlicensedCount = 0;

  add(label: string, licenseExpressions: readonly string[]): void {
    this.components += 1;
    const trimmed = [...new Set(licenseExpressions.map((e) => e.trim()).filter((e) => e.length > 0))];
    // An expression is kept whole or not at all: a clipped one no longer says what it denies.
    const expressions = trimmed.filter((e) => e.length <= SBOM_EXPRESSION_LIMIT);
    if (expressions.length < trimmed.length) this.licensesTruncated = true;
    if (trimmed.length === 0) {
      this.unlicensedCount += 1;
      if (this.unlicensed.length < SUMMARY_NAME_LIMIT) this.unlicensed.push(label);
      return;
    }
    for (const expression of expressions) {
      let entry = this.licenses.get(expression);
      if (!entry) {
        if (this.licenses.size >= SBOM_LICENSE_LIMIT) {
          this.licensesTruncated = true;
          continue;
        }
        entry = { expression, components: [], count: 0 };
        this.licenses.set(expression, entry);
      }
      entry.count += 1;
      if (entry.components.length < SUMMARY_NAME_LIMIT) entry.components.push(label);
    }
  }

  summary<F extends 'cyclonedx' | 'spdx'>(format: F, specVersion: string): SbomSummary & { format: F } {
    return {
      format,
      spec_version: specVersion,
      components: this.components,
      licenses: [...this.licenses.values()].sort((a, b) => b.count - a.count || a.expression.localeCompare(b.expression)),
      licenses_truncated: this.licensesTruncated,
      unlicensed: this.unlicensed,
      unlicensed_count: this.unlicensedCount,
    } as SbomSummary & { format: F };
  }
}
