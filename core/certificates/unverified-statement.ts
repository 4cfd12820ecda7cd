import { decodeStrictBase64 } from './strict-base64.js';
import type { Certificate, InTotoStatement } from './types.js';

/**
 * The statement a certificate's envelope carries, whether or not its signature verifies (that is
 * checked apart): what the chain and record checks compare against. Null when it does not decode.
 */
export function unverifiedStatement(cert: Certificate): InTotoStatement | null {
  try {
    const payload = decodeStrictBase64(String(cert?.envelope?.payload));
    const statement = payload ? (JSON.parse(payload.toString('utf8')) as InTotoStatement) : null;
    return typeof statement === 'object' && statement !== null ? statement : null;
  } catch {
    return null;
  }
}
