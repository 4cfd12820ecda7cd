import { createHash } from 'node:crypto';
import fs from 'node:fs';
import * as core from '@actions/core';
import { ActionError } from './action-error.js';
import type { ShipgateClient } from './http-client.js';
import type { ActionInputs, EvidenceInputs } from './inputs.js';
import type { EvidenceRecord } from './shipgate-types.js';

async function fileDigest(file: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  } catch (error) {
    throw new ActionError(`evidence-file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** Uploads one piece of evidence for the commit (the file's SHA-256 as its digest), before the decision is asked for. */
export async function uploadEvidence(client: ShipgateClient, inputs: ActionInputs, evidence: EvidenceInputs): Promise<EvidenceRecord> {
  const digest = evidence.file ? await fileDigest(evidence.file) : null;
  const record = await client.post<EvidenceRecord>(
    '/releases/evidence',
    {
      repo_root: inputs.repository,
      commit_sha: inputs.commitSha,
      kind: evidence.kind,
      name: evidence.name,
      status: evidence.status,
      digest,
      uri: evidence.uri ?? inputs.runUrl ?? null,
      produced_at: new Date().toISOString(),
      ref: inputs.ref ?? null,
    },
    `record evidence "${evidence.name}" for ${inputs.repository}`,
  );
  core.info(
    `Recorded evidence "${record.name}" (${record.status}${digest ? `, ${digest}` : ''}) for ${inputs.repository}@${inputs.commitSha}.`,
  );
  return record;
}
