import { SBOM_EXPRESSION_LIMIT, type SbomSummary } from './evidence-summary.js';
import type { SbomRules } from './evidence-rules.js';
import type { RuleResult } from './judge-evidence-content.js';
import { namesList } from './judge-tests-sarif.js';
import { createLicenseDenial } from './license-policy.js';

/**
 * An expression a summary recorded before November 2026 cut to 300 characters, marked with `…`: what it denied is
 * lost, so it fails a denied-licence rule as a truncated list does.
 */
function clippedBefore(license: { expression: string }): boolean {
  return license.expression.length === 300 && license.expression.endsWith('…');
}

/** SBOM: `denied_licenses` over every distinct licence expression; `require_licenses` over components naming none. */
export function judgeSbom(summary: SbomSummary, rules: SbomRules): RuleResult[] {
  const results: RuleResult[] = [];
  if (rules.denied_licenses.length > 0) {
    const isDenied = createLicenseDenial(rules.denied_licenses);
    const hits = summary.licenses.filter((l) => isDenied(l.expression));
    const count = hits.reduce((sum, l) => sum + l.count, 0);
    const named = hits.map((l) => `${namesList(l.components, l.count)} (${l.expression})`).join('; ');
    const unjudged = summary.licenses_truncated || summary.licenses.some(clippedBefore);
    const truncated = unjudged
      ? `The SBOM names more distinct licences than shipgate keeps (${summary.licenses.length}), or one longer than ${SBOM_EXPRESSION_LIMIT} characters, so the rest cannot be judged.`
      : '';
    const detail =
      count > 0
        ? `${count} of ${summary.components} components use a denied licence: ${named}.${truncated ? ` ${truncated}` : ''}`
        : truncated || `No component uses a denied licence (${rules.denied_licenses.join(', ')}).`;
    results.push({
      rule: 'denied_licenses',
      passed: count === 0 && !unjudged,
      detail,
      remediation:
        'Replace or remove the components under a denied licence and upload the new SBOM; if a component’s licence is approved by exception, remove it from `denied_licenses` for this evidence.',
    });
  }
  if (rules.require_licenses) {
    const count = summary.unlicensed_count;
    results.push({
      rule: 'require_licenses',
      passed: count === 0,
      detail:
        count > 0
          ? `${count} of ${summary.components} components name no licence: ${namesList(summary.unlicensed, count)}.`
          : `Every one of the ${summary.components} components names a licence.`,
      remediation:
        'Have the SBOM generator record each component’s licence (or record the concluded licence by hand) and upload the new SBOM.',
    });
  }
  return results;
}
