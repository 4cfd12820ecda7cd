import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pae } from '../../../core/certificates/pae.js';
import { IN_TOTO_PAYLOAD_TYPE } from '../../../core/certificates/types.js';
import type { TestApp, TestUser } from '../../support/test-app.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../evidence-content/fixtures');

/** A document of test/evidence-content/fixtures (the core's own samples, read-only here). */
export function fixture(file: string): Buffer {
  return readFileSync(path.join(FIXTURES, file));
}

/** The sample provenance statement, with `commit` as its source commit (resolvedDependencies' gitCommit). */
export function provenanceStatement(commit: string): Record<string, unknown> {
  const statement = JSON.parse(fixture('slsa-provenance-statement.json').toString('utf8'));
  statement.predicate.buildDefinition.resolvedDependencies[0].digest.gitCommit = commit;
  return statement;
}

/** A fresh Ed25519 key: its public JWK (with a kid) and a DSSE envelope signer. */
export function provenanceKey(kid: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = { ...(publicKey.export({ format: 'jwk' }) as { kty: 'OKP'; crv: string; x: string }), kid };
  const envelope = (statement: unknown) => {
    const payload = Buffer.from(JSON.stringify(statement), 'utf8');
    const sig = sign(null, pae(IN_TOTO_PAYLOAD_TYPE, payload), privateKey);
    return Buffer.from(
      JSON.stringify({
        payloadType: IN_TOTO_PAYLOAD_TYPE,
        payload: payload.toString('base64'),
        signatures: [{ keyid: kid, sig: sig.toString('base64') }],
      }),
    );
  };
  return { jwk, envelope };
}

export interface DocumentUpload {
  repo: string;
  commit: string;
  name: string;
  bytes: Buffer;
  format?: string;
  status?: 'passed' | 'failed';
  digest?: string;
}

/** POST /releases/evidence with the document as base64 `content`; the raw response (201, 413, 422...). */
export function sendDocument(t: TestApp, u: DocumentUpload, user?: TestUser) {
  return t.request
    .post('/api/v1/releases/evidence')
    .set((user ?? t.admin).auth)
    .send({
      repo_root: u.repo,
      commit_sha: u.commit,
      kind: 'report',
      name: u.name,
      status: u.status ?? 'passed',
      produced_at: new Date().toISOString(),
      content: u.bytes.toString('base64'),
      ...(u.format ? { format: u.format } : {}),
      ...(u.digest ? { digest: u.digest } : {}),
    });
}

/** Uploads a document and expects it recorded. */
export async function uploadDocument(t: TestApp, u: DocumentUpload, user?: TestUser) {
  const res = await sendDocument(t, u, user);
  if (res.status !== 201) throw new Error(`evidence: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** How many evidence rows a commit has and how many stored copies of `bytes` exist: what "nothing stored" is checked against. */
export async function stored(t: TestApp, repo: string, commit: string, bytes: Buffer) {
  const db = t.database.db;
  const evidence = await db('evidence').where({ repo_root: repo, commit_sha: commit, source: 'upload' }).count({ n: '*' });
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const copies = await db('evidence_documents').where({ digest }).count({ n: '*' });
  return { evidence: Number(evidence[0].n), copies: Number(copies[0].n) };
}
