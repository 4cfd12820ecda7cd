import { z } from 'zod';
import { pae } from '../certificates/pae.js';
import { decodeStrictBase64 } from '../certificates/strict-base64.js';
import { IN_TOTO_PAYLOAD_TYPE, IN_TOTO_STATEMENT_TYPE } from '../certificates/types.js';
import { EvidenceDocumentInvalid } from '../errors.js';
import { isRecord, parseJsonText } from './document-text.js';
import { PROVENANCE_SUBJECT_LIMIT, type ProvenanceSummary } from './evidence-summary.js';
import { keyNames, publicKeyOfJwk, verifyWithKey, type ProvenanceKey } from './provenance-keys.js';
import { readWith } from './zod-loc.js';

export const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1';
/** Signatures checked per envelope; more are counted but not tried (each costs a verification per key). */
const SIGNATURES_CHECKED = 16;

const digestSet = z.record(z.string(), z.string());
const envelopeSchema = z.looseObject({
  payloadType: z.literal(IN_TOTO_PAYLOAD_TYPE),
  payload: z.string(),
  signatures: z.array(z.looseObject({ keyid: z.string().optional(), sig: z.string() })).min(1),
});
const statementSchema = z.looseObject({
  _type: z.literal(IN_TOTO_STATEMENT_TYPE),
  subject: z.array(z.looseObject({ name: z.string().optional(), digest: digestSet })).min(1),
  predicateType: z.literal(SLSA_PROVENANCE_V1),
  predicate: z.looseObject({
    buildDefinition: z.looseObject({
      buildType: z.string().min(1).max(2000),
      externalParameters: z.looseObject({}),
      resolvedDependencies: z.array(z.looseObject({ digest: digestSet.optional() })).optional(),
    }),
    runDetails: z.looseObject({ builder: z.looseObject({ id: z.string().min(1).max(2000) }) }),
  }),
});

type Envelope = z.output<typeof envelopeSchema>;

/** The names (thumbprint, kid) of the given keys that made a valid signature over the envelope's PAE. */
function verifiedKeys(envelope: Envelope, payload: Buffer, keys: readonly ProvenanceKey[]): string[] {
  const message = pae(envelope.payloadType, payload);
  const signatures = envelope.signatures
    .slice(0, SIGNATURES_CHECKED)
    .map((s) => decodeStrictBase64(s.sig))
    .filter((sig): sig is Buffer => sig !== null);
  const verified: string[] = [];
  for (const jwk of keys) {
    const key = publicKeyOfJwk(jwk);
    if (key && signatures.some((sig) => verifyWithKey(jwk, key, message, sig))) verified.push(...keyNames(jwk));
  }
  return [...new Set(verified)];
}

/**
 * in-toto SLSA provenance v1 (docs/release-gate.md, "Evidence read by content"): a bare in-toto Statement v1, or a
 * DSSE envelope carrying one. An envelope's signatures are verified over the DSSE PAE against the keys the gate
 * names; the summary records which verified (an envelope nobody's key verifies still reads, as unsigned).
 */
export function parseProvenance(value: unknown, keys: readonly ProvenanceKey[]): ProvenanceSummary {
  if (!isRecord(value)) throw new EvidenceDocumentInvalid([], 'Provenance is a JSON object: an in-toto statement or a DSSE envelope.');
  const isEnvelope = 'payloadType' in value || 'signatures' in value;
  let statementValue: unknown = value;
  let prefix: (string | number)[] = [];
  let signatures = 0;
  let verified: string[] = [];
  if (isEnvelope) {
    const envelope = readWith(envelopeSchema, value, 'DSSE envelope of an in-toto statement');
    const payload = decodeStrictBase64(envelope.payload);
    if (!payload) throw new EvidenceDocumentInvalid(['payload'], 'The envelope’s payload is not standard base64.');
    try {
      statementValue = parseJsonText(payload.toString('utf8'));
    } catch (error) {
      throw new EvidenceDocumentInvalid(['payload'], `The envelope’s payload: ${(error as Error).message}`);
    }
    prefix = ['payload'];
    signatures = envelope.signatures.length;
    verified = verifiedKeys(envelope, payload, keys);
  }
  if (isRecord(statementValue) && statementValue._type !== IN_TOTO_STATEMENT_TYPE) {
    throw new EvidenceDocumentInvalid([...prefix, '_type'], `An in-toto Statement v1 has _type ${IN_TOTO_STATEMENT_TYPE}.`);
  }
  if (isRecord(statementValue) && statementValue.predicateType !== SLSA_PROVENANCE_V1) {
    throw new EvidenceDocumentInvalid([...prefix, 'predicateType'], `Provenance has predicateType ${SLSA_PROVENANCE_V1}.`);
  }
  const statement = readWith(statementSchema, statementValue, 'SLSA provenance v1 statement', prefix);
  const { buildDefinition, runDetails } = statement.predicate;
  const commits = (buildDefinition.resolvedDependencies ?? [])
    .map((dependency) => dependency.digest?.gitCommit)
    .filter((c): c is string => typeof c === 'string' && c.length > 0)
    .map((c) => c.toLowerCase());
  return {
    format: 'provenance',
    envelope: isEnvelope,
    predicate_type: statement.predicateType,
    builder_id: runDetails.builder.id,
    build_type: buildDefinition.buildType,
    subjects: statement.subject.slice(0, PROVENANCE_SUBJECT_LIMIT).map((s) => ({ name: s.name ?? '', digest: { ...s.digest } })),
    subjects_count: statement.subject.length,
    source_commits: [...new Set(commits)],
    signatures,
    verified_keys: verified,
  };
}
