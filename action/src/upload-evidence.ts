import { createHash } from 'node:crypto';
import fs from 'node:fs';
import * as core from '@actions/core';
import { ActionError } from './action-error.js';
import { oneLine, readEvidenceRecord } from './answers.js';
import type { ShipgateClient } from './http-client.js';
import type { ActionInputs, EvidenceInputs } from './inputs.js';
import { summaryLine } from './evidence-summary.js';
import { ShipgateRefusal } from './shipgate-refusal.js';
import type { EvidenceRecord, EvidenceRequest } from './shipgate-types.js';

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

const READ_FORMATS = 'a JUnit XML report, a SARIF 2.1.0 log, a CycloneDX or SPDX 2.3 JSON SBOM, or in-toto provenance';

async function fileSize(file: string): Promise<number> {
  try {
    return (await fs.promises.stat(file)).size;
  } catch (error) {
    throw unreadable(file, error);
  }
}

async function readBytes(file: string): Promise<Buffer> {
  try {
    return await fs.promises.readFile(file);
  } catch (error) {
    throw unreadable(file, error);
  }
}

/** What the request says of the file: its digest, and the document itself when shipgate is to read it. */
type DocumentFields = Pick<EvidenceRequest, 'digest' | 'content' | 'format'>;

/** shipgate could not read the document it was sent (a 422 on `content`: not a format it reads, or not valid as one); nothing was stored. */
function documentRefused(error: unknown): error is ShipgateRefusal {
  return (
    error instanceof ShipgateRefusal &&
    error.status === 422 &&
    Array.isArray(error.detail) &&
    error.detail.some(
      (issue: { loc?: unknown } | null) => Array.isArray(issue?.loc) && issue.loc[0] === 'body' && issue.loc[1] === 'content',
    )
  );
}

/** shipgate's words on a refused request, without where in the request they point. */
const issueMessages = (detail: unknown) =>
  oneLine((detail as ({ msg?: unknown } | null)[]).map((issue) => (typeof issue?.msg === 'string' ? issue.msg : '')).join(' '));

/**
 * Records the evidence (docs/action.md, "Evidence files"). With evidence-file, the file itself is sent
 * for shipgate to read (with `format` when evidence-format names one) and its SHA-256 is the digest.
 * evidence-format: none sends the digest only. Without evidence-format, a file shipgate does not
 * read (another format, or over 10 MiB) is recorded by its digest with a notice, as before shipgate
 * read documents; only a file that is not the format evidence-format names fails the step.
 */
async function record(client: ShipgateClient, inputs: ActionInputs, evidence: EvidenceInputs, what: string) {
  const send = async (document: DocumentFields) =>
    readEvidenceRecord(
      await client.post(
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
        } satisfies EvidenceRequest,
        what,
      ),
      { repository: inputs.repository, commitSha: inputs.commitSha, name: evidence.name, status: evidence.status },
      what,
    );
  const { file, format } = evidence;
  if (!file) return send({ digest: null });
  if (format === 'none') return send({ digest: await fileDigest(file) });
  const size = await fileSize(file);
  const bytes = size > MAX_DOCUMENT_BYTES ? null : await readBytes(file);
  if (!bytes) {
    const tooLarge = `evidence-file ${file} is ${size.toLocaleString('en-US')} bytes; shipgate reads documents of at most 10 MiB (10,485,760 bytes).`;
    if (format)
      throw new ActionError(
        `${tooLarge} Upload a smaller report (e.g. one per test suite), or set evidence-format: none to record only its SHA-256.`,
      );
    core.notice(`${tooLarge} Recorded its SHA-256 only; set evidence-format: none to do so without this notice.`);
    return send({ digest: await fileDigest(file) });
  }
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  try {
    return await send({ digest, content: bytes.toString('base64'), ...(format ? { format } : {}) });
  } catch (error) {
    if (!documentRefused(error)) throw error;
    if (format)
      throw new ActionError(
        `${error.message} evidence-file ${file} does not read as evidence-format ${format}. ` +
          `Name the file's format (shipgate reads ${READ_FORMATS}), leave evidence-format out to record a file of another kind by its SHA-256, ` +
          'or set evidence-format: none to record only its SHA-256.',
      );
    core.notice(
      `shipgate does not read evidence-file ${file} (${issueMessages(error.detail)}), so only its SHA-256 was recorded. ` +
        "Set evidence-format to the file's format to have it read, or to none to record the digest without this notice.",
    );
    return send({ digest });
  }
}

/** Uploads one piece of evidence for the commit, before the decision is asked for, and logs what shipgate read of it. */
export async function uploadEvidence(client: ShipgateClient, inputs: ActionInputs, evidence: EvidenceInputs): Promise<EvidenceRecord> {
  const recorded = await record(client, inputs, evidence, `record evidence "${evidence.name}" for ${inputs.repository}`);
  const digest = recorded.digest ? `, ${oneLine(recorded.digest, 200)}` : '';
  core.info(
    `Recorded evidence "${oneLine(recorded.name, 200)}" (${oneLine(recorded.status, 40)}${digest}) for ${inputs.repository}@${inputs.commitSha}.`,
  );
  if (recorded.summary) core.info(`shipgate read it as ${oneLine(String(recorded.format), 40)}: ${oneLine(summaryLine(recorded.summary))}`);
  return recorded;
}
