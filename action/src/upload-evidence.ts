import { createHash } from 'node:crypto';
import fs from 'node:fs';
import * as core from '@actions/core';
import { ActionError } from './action-error.js';
import type { ShipgateClient } from './http-client.js';
import type { ActionInputs, EvidenceInputs } from './inputs.js';
import { summaryLine } from './evidence-summary.js';
import type { EvidenceRecord } from './shipgate-types.js';

/** The largest document shipgate reads (its limit for `content`, decoded). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

const unreadable = (file: string, error: unknown) =>
  new ActionError(`evidence-file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);

async function fileDigest(file: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  } catch (error) {
    throw unreadable(file, error);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** The file's exact bytes, refused before anything is sent when shipgate would refuse them (over 10 MiB). */
async function documentBytes(file: string): Promise<Buffer> {
  let size: number;
  try {
    size = (await fs.promises.stat(file)).size;
  } catch (error) {
    throw unreadable(file, error);
  }
  if (size > MAX_DOCUMENT_BYTES)
    throw new ActionError(
      `evidence-file ${file} is ${size.toLocaleString('en-US')} bytes; shipgate reads documents of at most 10 MiB (10,485,760 bytes). ` +
        'Upload a smaller report (e.g. one per test suite), or set evidence-format: none to record only its SHA-256.',
    );
  try {
    return await fs.promises.readFile(file);
  } catch (error) {
    throw unreadable(file, error);
  }
}

/** The request's digest and, unless evidence-format is `none`, the document itself for shipgate to read. */
async function documentFields(evidence: EvidenceInputs) {
  if (!evidence.file) return { digest: null };
  if (evidence.format === 'none') return { digest: await fileDigest(evidence.file) };
  const bytes = await documentBytes(evidence.file);
  return {
    digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    content: bytes.toString('base64'),
    ...(evidence.format ? { format: evidence.format } : {}),
  };
}

/**
 * Uploads one piece of evidence for the commit, before the decision is asked for: with
 * evidence-file, the file itself (base64 `content`, with `format` when declared), which shipgate
 * reads and summarises, and its SHA-256 as the digest.
 */
export async function uploadEvidence(client: ShipgateClient, inputs: ActionInputs, evidence: EvidenceInputs): Promise<EvidenceRecord> {
  const document = await documentFields(evidence);
  const what = `record evidence "${evidence.name}" for ${inputs.repository}`;
  let record: EvidenceRecord;
  try {
    record = await client.post<EvidenceRecord>(
      '/releases/evidence',
      {
        repo_root: inputs.repository,
        commit_sha: inputs.commitSha,
        kind: evidence.kind,
        name: evidence.name,
        status: evidence.status,
        ...document,
        uri: evidence.uri ?? inputs.runUrl ?? null,
        produced_at: new Date().toISOString(),
        ref: inputs.ref ?? null,
      },
      what,
    );
  } catch (error) {
    // A document shipgate does not read (or cannot tell the format of) is refused with a 422.
    if (error instanceof ActionError && 'content' in document && error.message.startsWith(`shipgate rejected the request to ${what} (422)`))
      throw new ActionError(
        `${error.message} evidence-file must be a JUnit XML report, a SARIF 2.1.0 log, a CycloneDX or SPDX 2.3 JSON SBOM, or in-toto provenance` +
          `${evidence.format ? ` (declared: ${evidence.format})` : ''}; for any other file set evidence-format: none to record only its SHA-256.`,
      );
    throw error;
  }
  const digest = record.digest ?? document.digest;
  core.info(
    `Recorded evidence "${record.name}" (${record.status}${digest ? `, ${digest}` : ''}) for ${inputs.repository}@${inputs.commitSha}.`,
  );
  if (record.summary) core.info(`shipgate read it as ${record.format}: ${summaryLine(record.summary)}`);
  return record;
}
