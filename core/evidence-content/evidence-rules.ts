import parseSpdxExpression from 'spdx-expression-parse';
import { z } from 'zod';
import { visibleName } from '../visible-name.js';
import { EVIDENCE_FORMATS } from './evidence-format.js';
import { keyNames, publicKeyOfJwk, type ProvenanceKey } from './provenance-keys.js';

/**
 * A `required_evidence` entry (docs/release-gate.md, "Evidence read by content"): a plain name, or
 * `{name, format?, rules?}`. Rules need a format, and are that format's rules; one schema serves the REST body and
 * `.github/shipgate.yml`.
 */
const name = visibleName(z.string().trim().min(1).max(200));

const testsRulesSchema = z
  .object({
    max_failed: z.number().int().min(0).default(0).meta({
      description: 'Most failing test cases allowed; errored test cases count as failed. Default 0.',
    }),
    min_total: z.number().int().min(0).optional().meta({ description: 'Fewest test cases the report must hold.' }),
  })
  .strict()
  .meta({ id: 'TestsEvidenceRules' });

const sarifRulesSchema = z
  .object({
    max_level: z.enum(['none', 'note', 'warning']).default('warning').meta({
      description:
        'The highest result level allowed: `warning` (default) blocks on any `error` result; `note` blocks on warnings too; `none` on notes too.',
    }),
    ignore_rules: z
      .array(z.string().min(1).max(200))
      .max(500)
      .default([])
      .meta({ description: 'Rule ids whose results are not judged (e.g. `js/unused-local-variable`).' }),
  })
  .strict()
  .meta({ id: 'SarifEvidenceRules' });

function isSpdxExpression(text: string): boolean {
  try {
    parseSpdxExpression(text);
    return true;
  } catch {
    return false;
  }
}

const spdxExpression = z.string().trim().min(1).max(500).refine(isSpdxExpression, 'Not a valid SPDX licence id or expression.');

const sbomRulesSchema = z
  .object({
    denied_licenses: z.array(spdxExpression).max(200).default([]).meta({
      description:
        'SPDX licence ids (or expressions: each licence named is denied), e.g. `GPL-3.0-only`. A component is denied when every way of satisfying its licence expression uses a denied licence: `MIT OR GPL-3.0-only` passes (MIT can be chosen), `MIT AND GPL-3.0-only` is denied. Ranges follow SPDX: `GPL-2.0+` denies GPL-2.0 and later versions.',
    }),
    require_licenses: z.boolean().default(false).meta({ description: 'Every component must name a licence.' }),
  })
  .strict()
  .meta({ id: 'SbomEvidenceRules' });

const b64url = z
  .string()
  .max(2048)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not base64url.');

/** A public JWK; private members (`d`, ...) are refused, as is any key shipgate cannot verify with. */
const jwkSchema = z
  .object({
    kty: z.enum(['OKP', 'EC', 'RSA']),
    crv: z.enum(['Ed25519', 'P-256']).optional(),
    x: b64url.optional(),
    y: b64url.optional(),
    n: b64url.optional(),
    e: b64url.optional(),
    kid: z.string().min(1).max(200).optional(),
    alg: z.enum(['EdDSA', 'ES256', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']).optional(),
    use: z.literal('sig').optional(),
  })
  .strict()
  .refine((jwk) => publicKeyOfJwk(jwk) !== null, {
    message: 'Not a usable public key: an Ed25519 (OKP), EC P-256 or RSA (2048 bits or more) public JWK.',
  })
  .meta({ id: 'ProvenanceKeyJwk' });

const provenanceRulesSchema = z
  .object({
    builder_ids: z.array(z.string().min(1).max(500)).min(1).max(50).optional().meta({
      description: 'Builder ids allowed (`predicate.runDetails.builder.id`, exact match). Omitted: any builder.',
    }),
    commit_must_match: z.boolean().default(true).meta({
      description:
        'The provenance names the commit being released: a `gitCommit` digest in `resolvedDependencies` (SLSA v1, the source) or in a subject.',
    }),
    keys: z
      .array(z.union([jwkSchema, z.string().trim().min(1).max(200)]))
      .max(20)
      .default([])
      .meta({
        description:
          'Keys (public JWKs, or the kid or RFC 7638 thumbprint of a JWK named in a provenance rule of this gate) one of which must have signed the DSSE envelope. Verified at upload: a key added later needs the provenance uploaded again.',
      }),
  })
  .strict()
  .meta({ id: 'ProvenanceEvidenceRules' });

/** `rules` without `format` says what to add (zod alone says only "Unrecognized key"); any other unknown key keeps zod's words. */
function rulesNeedAFormat(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'unrecognized_keys' || !issue.keys.includes('rules')) return undefined;
  const others = issue.keys.filter((key) => key !== 'rules').map((key) => `"${key}"`);
  return (
    `\`rules\` need a \`format\`: add one of ${EVIDENCE_FORMATS.join(', ')}, the format whose rules they are.` +
    (others.length > 0 ? ` Unrecognized ${others.length === 1 ? 'key' : 'keys'}: ${others.join(', ')}.` : '')
  );
}

// One discriminated union (by `format`, absent included) so a bad entry's problem is reported at its own path.
const entryObject = z
  .discriminatedUnion('format', [
    z.object({ name, format: z.literal('junit'), rules: testsRulesSchema.optional() }).strict(),
    z.object({ name, format: z.literal('sarif'), rules: sarifRulesSchema.optional() }).strict(),
    z.object({ name, format: z.literal('cyclonedx'), rules: sbomRulesSchema.optional() }).strict(),
    z.object({ name, format: z.literal('spdx'), rules: sbomRulesSchema.optional() }).strict(),
    z.object({ name, format: z.literal('provenance'), rules: provenanceRulesSchema.optional() }).strict(),
    z.strictObject({ name, format: z.undefined().optional() }, { error: rulesNeedAFormat }),
  ])
  .meta({ id: 'RequiredEvidenceObject' });

export const requiredEvidenceEntrySchema = z.union([name, entryObject]).meta({
  id: 'RequiredEvidenceEntry',
  description:
    'An evidence name, or `{name, format?, rules?}`: the evidence must carry a document of that format whose content keeps the rules (omitted rules: the format’s default rule). `rules` need a `format`.',
});

export type RequiredEvidenceEntry = z.output<typeof requiredEvidenceEntrySchema>;
export type TestsRules = z.output<typeof testsRulesSchema>;
export type SarifRules = z.output<typeof sarifRulesSchema>;
export type SbomRules = z.output<typeof sbomRulesSchema>;
export type ProvenanceRules = z.output<typeof provenanceRulesSchema>;

/** The evidence name an entry requires. */
export function evidenceEntryName(entry: RequiredEvidenceEntry): string {
  return typeof entry === 'string' ? entry : entry.name;
}

/** A `required_evidence` list: at most 100 entries, names unique. */
export const requiredEvidenceListSchema = z
  .array(requiredEvidenceEntrySchema)
  .max(100)
  .refine((list) => new Set(list.map(evidenceEntryName)).size === list.length, 'Names must be unique.');

/**
 * Every public key the entries' provenance rules name as a JWK, once each (by thumbprint and kid, so each kid a gate
 * gives a key is recorded when it verifies): the keys the server verifies provenance with at upload.
 */
export function provenanceKeysOf(entries: readonly RequiredEvidenceEntry[]): ProvenanceKey[] {
  const keys = new Map<string, ProvenanceKey>();
  for (const entry of entries) {
    if (typeof entry === 'string' || !('format' in entry) || entry.format !== 'provenance') continue;
    for (const key of entry.rules?.keys ?? []) {
      if (typeof key !== 'string') keys.set(`${keyNames(key)[0]} ${key.kid ?? ''}`, key);
    }
  }
  return [...keys.values()];
}

export type { ProvenanceKey };
