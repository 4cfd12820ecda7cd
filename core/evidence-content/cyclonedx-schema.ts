import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import addDraft2019Formats from 'ajv-formats-draft2019';

export const CYCLONEDX_VERSIONS = ['1.4', '1.5', '1.6'] as const;

/** The JSON schemas the CycloneDX library ships (res/schema/), the same files its JsonStrictValidator compiles. */
const require = createRequire(import.meta.url);
const SCHEMA_ROOT = path.join(path.dirname(require.resolve('@cyclonedx/cyclonedx-library/package.json')), 'res', 'schema');
const REFERENCED = {
  'http://cyclonedx.org/schema/spdx.SNAPSHOT.schema.json': 'spdx.SNAPSHOT.schema.json',
  'http://cyclonedx.org/schema/cryptography-defs.SNAPSHOT.schema.json': 'cryptography-defs.SNAPSHOT.schema.json',
  'http://cyclonedx.org/schema/jsf-0.82.SNAPSHOT.schema.json': 'jsf-0.82.SNAPSHOT.schema.json',
};

function readSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(SCHEMA_ROOT, file), 'utf8')) as Record<string, unknown>;
}

/**
 * The schema without `uniqueItems`: Ajv checks it by comparing every pair of items, so a 10 MiB SBOM of tens of
 * thousands of components would take minutes. A duplicated component is only counted twice in the summary.
 */
function withoutUniqueItems(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutUniqueItems);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'uniqueItems')
      .map(([k, v]) => [k, withoutUniqueItems(v)]),
  );
}

const validators = new Map<string, ValidateFunction>();

/**
 * The validator of a CycloneDX spec version, compiled once (on first use, about two seconds) with the options the
 * CycloneDX library uses: no defaults, lax keywords, no remote schemas.
 */
function validatorOf(version: (typeof CYCLONEDX_VERSIONS)[number]): ValidateFunction {
  let validate = validators.get(version);
  if (!validate) {
    const schemas = Object.fromEntries(Object.entries(REFERENCED).map(([id, file]) => [id, readSchema(file)]));
    const ajv = new Ajv({ useDefaults: false, strict: false, strictSchema: false, addUsedSchema: false, schemas });
    ajvFormats.default(ajv); // ajv-formats is CommonJS: its plugin is the `default` export
    addDraft2019Formats(ajv, { formats: ['idn-email'] });
    ajv.addFormat('iri-reference', true);
    validate = ajv.compile(withoutUniqueItems(readSchema(`bom-${version}.SNAPSHOT.schema.json`)) as Record<string, unknown>);
    validators.set(version, validate);
  }
  return validate;
}

export function isCyclonedxVersion(version: string): version is (typeof CYCLONEDX_VERSIONS)[number] {
  return (CYCLONEDX_VERSIONS as readonly string[]).includes(version);
}

/** The first way `bom` breaks its spec version's schema, or null when it keeps it. */
export function cyclonedxSchemaError(version: (typeof CYCLONEDX_VERSIONS)[number], bom: unknown): ErrorObject | null {
  const validate = validatorOf(version);
  return validate(bom) ? null : (validate.errors?.[0] ?? null);
}
