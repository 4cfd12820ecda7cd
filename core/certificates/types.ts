/** DSSE envelope (https://github.com/secure-systems-lab/dsse), payload base64 encoded. */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';

/** in-toto DigestSet: algorithm -> lower-case hex digest, e.g. `{"sha256": "..."}`. */
export type DigestSet = Record<string, string>;

/**
 * in-toto ResourceDescriptor (https://github.com/in-toto/attestation/blob/main/spec/v1/resource_descriptor.md),
 * the fields shipgate uses: at least one of `name`, `uri`, `digest`.
 */
export interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest?: DigestSet;
  annotations?: Record<string, unknown>;
}

/** A statement's subject: a named artifact with its digest. */
export interface Subject extends ResourceDescriptor {
  name: string;
  digest: DigestSet;
}

/** in-toto Statement v1. */
export interface InTotoStatement<P = Record<string, unknown>> {
  _type: typeof IN_TOTO_STATEMENT_TYPE;
  subject: Subject[];
  predicateType: string;
  predicate: P;
}

/** Public key as a JWK (OKP / Ed25519) with its keyid and lifetime. */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  use: 'sig';
  alg: 'EdDSA';
  status: 'current' | 'retired';
  created_at?: string;
  retired_at?: string | null;
}

/** Signs statements with the service key (Ed25519); keyid = hex SHA-256 of the raw public key. */
export interface Signer {
  readonly keyid: string;
  sign(statement: InTotoStatement): DsseEnvelope;
}

export interface VerificationResult {
  verified: boolean;
  /** Why verification failed: `bad_signature`, `unknown_key`, `malformed_envelope`, `payload_type`, ... */
  reason?: string;
  statement?: InTotoStatement;
}

/** Verifies envelopes against the current and retired public keys. */
export interface Verifier {
  verify(envelope: DsseEnvelope): VerificationResult;
}

/** A certificate as stored and returned (docs/workflows.md, "Governed agent executions": certificates). */
export interface Certificate {
  id: string;
  kind: 'tool_call' | 'execution' | 'promotion';
  theorem: string;
  plan_hash: string;
  verified_properties: string[];
  prover: 'shipgate-rules/1';
  issued_at: string;
  /** SHA-256 (hex) of the envelope's canonical JSON: what `prev` and lineage refer to. */
  digest: string;
  envelope: DsseEnvelope;
}
