/**
 * The document formats evidence may carry (docs/release-gate.md, "Evidence read by content"), what they are served as
 * when downloaded, and the largest document an upload may carry.
 */
export const EVIDENCE_FORMATS = ['junit', 'sarif', 'cyclonedx', 'spdx', 'provenance'] as const;

export type EvidenceFormat = (typeof EVIDENCE_FORMATS)[number];

/** 10 MiB of decoded bytes; a larger document is refused and nothing is stored. */
export const MAX_EVIDENCE_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** The Content-Type a stored document is downloaded with (always as an attachment). */
export const EVIDENCE_MEDIA_TYPES: Readonly<Record<EvidenceFormat, string>> = {
  junit: 'application/xml',
  sarif: 'application/sarif+json',
  cyclonedx: 'application/vnd.cyclonedx+json',
  spdx: 'application/spdx+json',
  provenance: 'application/vnd.in-toto+json',
};

/** The file extension of a downloaded document, without the dot. */
export const EVIDENCE_FILE_EXTENSIONS: Readonly<Record<EvidenceFormat, string>> = {
  junit: 'xml',
  sarif: 'sarif',
  cyclonedx: 'cdx.json',
  spdx: 'spdx.json',
  provenance: 'intoto.json',
};

/** What a human calls the format, for messages. */
export const EVIDENCE_FORMAT_TITLES: Readonly<Record<EvidenceFormat, string>> = {
  junit: 'JUnit XML test report',
  sarif: 'SARIF 2.1.0 log',
  cyclonedx: 'CycloneDX JSON SBOM',
  spdx: 'SPDX 2.3 JSON SBOM',
  provenance: 'in-toto SLSA provenance v1',
};

export function isEvidenceFormat(value: unknown): value is EvidenceFormat {
  return typeof value === 'string' && (EVIDENCE_FORMATS as readonly string[]).includes(value);
}
