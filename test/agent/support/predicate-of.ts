import type { Certificate } from '../../../core/certificates/types.js';

/** The in-toto predicate inside a certificate's DSSE envelope. */
export function predicateOf(certificate: Certificate): Record<string, unknown> {
  return JSON.parse(Buffer.from(certificate.envelope.payload, 'base64').toString('utf8')).predicate;
}
