import { EvidenceDocumentInvalid } from '../errors.js';
import { cyclonedxSchemaError, isCyclonedxVersion } from './cyclonedx-schema.js';
import { isRecord } from './document-text.js';
import type { SbomSummary } from './evidence-summary.js';
import { componentLabel, SbomTally } from './sbom-tally.js';

/** A JSON pointer (`/components/0/licenses`) as a loc (`['components', 0, 'licenses']`). */
function pointerLoc(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The licences a component names: `licenses[].license.id`, `.license.name`, or `licenses[].expression`. */
function licensesOf(component: Record<string, unknown>): string[] {
  const entries = Array.isArray(component.licenses) ? component.licenses : [];
  return entries.filter(isRecord).map((entry) => {
    if (typeof entry.expression === 'string') return entry.expression;
    const license = isRecord(entry.license) ? entry.license : {};
    return text(license.id) || text(license.name);
  });
}

/** Every component, nested ones included; the BOM's own subject (`metadata.component`) is not one of them. */
function tallyComponents(list: unknown, tally: SbomTally): void {
  if (!Array.isArray(list)) return;
  for (const component of list.filter(isRecord)) {
    tally.add(componentLabel(text(component.name), text(component.version), text(component.group)), licensesOf(component));
    tallyComponents(component.components, tally);
  }
}

/**
 * A CycloneDX JSON SBOM (docs/release-gate.md, "Evidence read by content"), spec 1.4 to 1.6, validated against
 * the spec's JSON schema shipped by the CycloneDX library (cyclonedx-schema.ts) before anything is read.
 */
export function parseCyclonedx(value: unknown): SbomSummary {
  if (!isRecord(value) || value.bomFormat !== 'CycloneDX') {
    throw new EvidenceDocumentInvalid(['bomFormat'], 'Not a CycloneDX SBOM: `bomFormat` is not "CycloneDX".');
  }
  const specVersion = text(value.specVersion);
  if (!isCyclonedxVersion(specVersion)) {
    throw new EvidenceDocumentInvalid(
      ['specVersion'],
      `CycloneDX 1.4, 1.5 and 1.6 are read; this SBOM says ${JSON.stringify(value.specVersion ?? null)}.`,
    );
  }
  const first = cyclonedxSchemaError(specVersion, value);
  if (first) {
    const loc = pointerLoc(first.instancePath ?? '');
    throw new EvidenceDocumentInvalid(
      loc,
      `Not a valid CycloneDX ${specVersion} SBOM: ${loc.length ? `${loc.join('.')} ` : ''}${first.message ?? 'does not match the schema'}.`,
    );
  }
  const tally = new SbomTally();
  tallyComponents(value.components, tally);
  return tally.summary('cyclonedx', specVersion);
}
