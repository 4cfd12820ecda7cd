import { randomUUID } from 'node:crypto';
import { canonicalDigest } from '../canonical-json.js';
import { PROVER } from './predicate-types.js';
import { IN_TOTO_STATEMENT_TYPE, type Certificate, type Signer, type Subject } from './types.js';

export interface CertificateClaim {
  kind: Certificate['kind'];
  theorem: string;
  plan_hash: string;
  verified_properties: string[];
  issued_at: string;
  subject: Subject[];
  predicateType: string;
  predicate: Record<string, unknown>;
}

/** Signs the claim as an in-toto statement and wraps it in the stored certificate record. */
export function issueCertificate(signer: Signer, claim: CertificateClaim): Certificate {
  const envelope = signer.sign({
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: claim.subject,
    predicateType: claim.predicateType,
    predicate: claim.predicate,
  });
  return {
    id: randomUUID(),
    kind: claim.kind,
    theorem: claim.theorem,
    plan_hash: claim.plan_hash,
    verified_properties: claim.verified_properties,
    prover: PROVER,
    issued_at: claim.issued_at,
    digest: canonicalDigest(envelope),
    envelope,
  };
}
