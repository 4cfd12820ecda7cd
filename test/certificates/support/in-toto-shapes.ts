/**
 * The shapes of the in-toto attestation framework and SLSA VSA v1, written from the
 * specifications (https://github.com/in-toto/attestation/tree/main/spec/v1,
 * https://slsa.dev/spec/v1.0/verification_summary) and sharing no code with core/: each
 * function lists what in a value breaks the specification (empty when it conforms).
 */

const HEX_LENGTH: Record<string, number> = { sha256: 64, sha512: 128, sha1: 40, gitCommit: 40 };

/** A URI per RFC 3986: a scheme, a colon, something after it, and parseable. */
export function isUri(value: unknown): boolean {
  return typeof value === 'string' && /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(value) && URL.canParse(value);
}

/** DigestSet: algorithm -> lower-case hex of that algorithm's length. */
export function digestSetProblems(value: unknown, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: not a DigestSet object`];
  const entries = Object.entries(value);
  if (entries.length === 0) return [`${at}: empty DigestSet`];
  return entries.flatMap(([algorithm, hex]) =>
    typeof hex === 'string' && /^[0-9a-f]+$/.test(hex) && (HEX_LENGTH[algorithm] === undefined || hex.length === HEX_LENGTH[algorithm])
      ? []
      : [`${at}.${algorithm}: not lower-case hex of the right length`],
  );
}

/** ResourceDescriptor: at least one of uri, digest, content; uri a URI; digest a DigestSet. */
export function resourceDescriptorProblems(value: unknown, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: not a ResourceDescriptor object`];
  const rd = value as Record<string, unknown>;
  const known = ['name', 'uri', 'digest', 'content', 'downloadLocation', 'mediaType', 'annotations'];
  const problems = Object.keys(rd)
    .filter((k) => !known.includes(k))
    .map((k) => `${at}.${k}: not a ResourceDescriptor field`);
  if (rd.uri === undefined && rd.digest === undefined && rd.content === undefined) problems.push(`${at}: needs uri, digest or content`);
  if (rd.name !== undefined && typeof rd.name !== 'string') problems.push(`${at}.name: not a string`);
  if (rd.uri !== undefined && !isUri(rd.uri)) problems.push(`${at}.uri: not a URI (${String(rd.uri)})`);
  if (rd.digest !== undefined) problems.push(...digestSetProblems(rd.digest, `${at}.digest`));
  if (rd.annotations !== undefined && (typeof rd.annotations !== 'object' || rd.annotations === null))
    problems.push(`${at}.annotations: not an object`);
  return problems;
}

/** in-toto Statement v1: `_type`, subjects with a name and a digest, a predicateType URI, a predicate object. */
export function statementProblems(value: unknown): string[] {
  const s = value as Record<string, unknown>;
  const problems: string[] = [];
  if (s?._type !== 'https://in-toto.io/Statement/v1') problems.push('_type');
  if (!Array.isArray(s?.subject) || s.subject.length === 0) problems.push('subject: none');
  else
    (s.subject as Record<string, unknown>[]).forEach((subject, i) => {
      problems.push(...resourceDescriptorProblems(subject, `subject[${i}]`));
      if (typeof subject.name !== 'string' || subject.digest === undefined) problems.push(`subject[${i}]: needs name and digest`);
    });
  if (!isUri(s?.predicateType)) problems.push('predicateType: not a URI');
  if (typeof s?.predicate !== 'object' || s.predicate === null) problems.push('predicate: not an object');
  return problems;
}

const VSA_FIELDS = [
  'verifier',
  'timeVerified',
  'resourceUri',
  'policy',
  'inputAttestations',
  'verificationResult',
  'verifiedLevels',
  'dependencyLevels',
  'slsaVersion',
];

/** SLSA VSA v1: required verifier.id, resourceUri, policy (uri + digest), verificationResult, verifiedLevels; extensions URI-named. */
export function verificationSummaryProblems(predicate: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const verifier = predicate.verifier as { id?: unknown } | undefined;
  if (!isUri(verifier?.id)) problems.push('verifier.id: required URI');
  if (predicate.timeVerified !== undefined && Number.isNaN(Date.parse(String(predicate.timeVerified)))) problems.push('timeVerified');
  if (!isUri(predicate.resourceUri)) problems.push('resourceUri: required URI');
  const policy = predicate.policy as Record<string, unknown> | undefined;
  if (!policy || policy.uri === undefined) problems.push('policy.uri: required');
  problems.push(...resourceDescriptorProblems(policy, 'policy'));
  if (Array.isArray(predicate.inputAttestations))
    predicate.inputAttestations.forEach((a, i) => {
      problems.push(...resourceDescriptorProblems(a, `inputAttestations[${i}]`));
      if ((a as Record<string, unknown>)?.uri === undefined || (a as Record<string, unknown>)?.digest === undefined)
        problems.push(`inputAttestations[${i}]: needs uri and digest`);
    });
  if (predicate.verificationResult !== 'PASSED' && predicate.verificationResult !== 'FAILED') problems.push('verificationResult');
  if (!Array.isArray(predicate.verifiedLevels)) problems.push('verifiedLevels: required');
  for (const key of Object.keys(predicate))
    if (!VSA_FIELDS.includes(key) && !isUri(key)) problems.push(`${key}: extension field not URI-named`);
  return problems;
}
