import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { pae } from '../../../core/certificates/pae.js';
import { EvidenceDocumentInvalid } from '../../../core/errors.js';
import type { EvidenceFormat } from '../../../core/evidence-content/evidence-format.js';
import type { EvidenceSummary } from '../../../core/evidence-content/evidence-summary.js';
import { parseEvidenceDocument } from '../../../core/evidence-content/parse-evidence-document.js';
import type { ProvenanceKey } from '../../../core/evidence-content/provenance-keys.js';

/** The bytes of a sample document in test/evidence-content/fixtures/. */
export function fixtureBytes(name: string): Buffer {
  return fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureBytes(name).toString('utf8')) as Record<string, unknown>;
}

export function bytesOf(value: unknown): Buffer {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
}

/** The summary of a document, given as a fixture name, bytes, or a JSON value. */
export async function summaryOf(
  document: string | Buffer | Record<string, unknown>,
  declared: EvidenceFormat | null = null,
  keys: ProvenanceKey[] = [],
): Promise<EvidenceSummary> {
  const bytes = typeof document === 'string' ? fixtureBytes(document) : Buffer.isBuffer(document) ? document : bytesOf(document);
  return (await parseEvidenceDocument(bytes, declared, keys)).summary;
}

/** The EvidenceDocumentInvalid a document is refused with (fails the test when it is read, or anything else is thrown). */
export async function refusal(bytes: Uint8Array, declared: EvidenceFormat | null = null, keys: ProvenanceKey[] = []) {
  try {
    await parseEvidenceDocument(bytes, declared, keys);
  } catch (error) {
    if (error instanceof EvidenceDocumentInvalid) return { loc: error.loc, message: error.message };
    throw error;
  }
  throw new Error('The document was read; a refusal was expected.');
}

export interface TestKey {
  jwk: ProvenanceKey;
  privateKey: KeyObject;
  /** Signs bytes as DSSE signers of this key type do. */
  sign(message: Buffer): Buffer;
}

/** A freshly generated signing key of a kind a gate may name, with its public JWK. */
export function generateTestKey(kind: 'ed25519' | 'p256' | 'p256-raw' | 'rsa', kid?: string): TestKey {
  const pair =
    kind === 'ed25519'
      ? generateKeyPairSync('ed25519')
      : kind === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...(pair.publicKey.export({ format: 'jwk' }) as ProvenanceKey), ...(kid ? { kid } : {}) };
  const signer = (message: Buffer): Buffer => {
    if (kind === 'ed25519') return sign(null, message, pair.privateKey);
    if (kind === 'p256-raw') return sign('sha256', message, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' });
    return sign('sha256', message, pair.privateKey);
  };
  return { jwk, privateKey: pair.privateKey, sign: signer };
}

/** A DSSE envelope of `statement`, signed over the PAE by each key (keyid: the key's kid, or none). */
export function envelopeOf(statement: unknown, keys: TestKey[], payloadType = 'application/vnd.in-toto+json') {
  const payload = bytesOf(statement);
  return {
    payloadType,
    payload: payload.toString('base64'),
    signatures: keys.map((key) => ({
      ...(key.jwk.kid ? { keyid: key.jwk.kid } : {}),
      sig: key.sign(pae(payloadType, payload)).toString('base64'),
    })),
  };
}
