import * as core from '@actions/core';
import { ActionError } from './action-error.js';
import { isHttpUrl } from './answers.js';
import { defaultCommitSha } from './commit-sha.js';
import { parseSessionInputs, type SessionInputs } from './session-inputs.js';

export interface EvidenceInputs {
  name: string;
  kind: string;
  status: 'passed' | 'failed';
  /** A file whose SHA-256 becomes the evidence digest; uploaded for shipgate to read unless format is `none`. */
  file?: string;
  /** The file's format (`junit`, `sarif`, `cyclonedx`, `spdx`, `provenance`), `none` (digest only), or unset (the service detects it). */
  format?: EvidenceFormatInput;
  uri?: string;
}

export interface ActionInputs {
  /** The service's base URL, without a trailing slash or `/api/v1`. */
  apiUrl: string;
  /** Without it the job's GitHub OIDC token (for `audience`) is used. */
  apiKey?: string;
  audience: string;
  repository: string;
  commitSha: string;
  /** A branch this commit is the head of (push events), so the badge can resolve it. */
  ref?: string;
  waitTimeoutSeconds: number;
  pollIntervalSeconds: number;
  failOnNoShip: boolean;
  decide: boolean;
  evidence?: EvidenceInputs;
  /** This workflow run's page, the default evidence URI. */
  runUrl?: string;
  /** `mode: session`: open an agent session instead of gating (docs/action.md). */
  session?: SessionInputs;
}

/** What evidence-format takes: the formats shipgate reads (docs/action.md), or `none` for a digest only. */
export const EVIDENCE_FORMATS = ['junit', 'sarif', 'cyclonedx', 'spdx', 'provenance', 'none'] as const;
export type EvidenceFormatInput = (typeof EVIDENCE_FORMATS)[number];

const REPOSITORY = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/;
const SHA = /^[0-9a-f]{40}$/i;

/**
 * Every input, read and validated once. All problems are reported together, so a user fixes the
 * workflow file in one go. `env` is the runner's environment (GITHUB_* variables).
 */
export function parseInputs(env: NodeJS.ProcessEnv = process.env): ActionInputs {
  const problems: string[] = [];
  const input = (name: string) => core.getInput(name) || undefined;
  const whole = (name: string, fallback: number, min: number) => {
    const text = input(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min)
      problems.push(`${name} must be a whole number of seconds, at least ${min} (got "${text}").`);
    return value;
  };
  const flag = (name: string, fallback: boolean) => {
    const text = input(name);
    if (text === undefined) return fallback;
    if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
    problems.push(`${name} must be true or false (got "${text}").`);
    return fallback;
  };

  const rawUrl = input('api-url');
  let apiUrl = '';
  if (!rawUrl) problems.push('api-url is required: the URL of your shipgate service, e.g. https://gate.example.com.');
  else if (!isHttpUrl(rawUrl)) problems.push(`api-url must be an http(s) URL (got "${rawUrl}").`);
  else apiUrl = rawUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');

  const mode = input('mode') ?? 'gate';
  if (mode !== 'gate' && mode !== 'session') problems.push(`mode must be gate or session (got "${mode}").`);
  const repository = input('repository') ?? env.GITHUB_REPOSITORY ?? '';
  if (!REPOSITORY.test(repository)) problems.push(`repository must be owner/repo (got "${repository}").`);
  const commitSha = input('commit-sha') ?? defaultCommitSha(env) ?? '';
  if (mode !== 'session' && !SHA.test(commitSha)) problems.push(`commit-sha must be a full 40-character SHA (got "${commitSha}").`);

  const evidenceName = input('evidence-name');
  const evidenceStatus = input('evidence-status') ?? 'passed';
  if (evidenceStatus !== 'passed' && evidenceStatus !== 'failed')
    problems.push(`evidence-status must be passed or failed (got "${evidenceStatus}").`);
  const evidenceFormat = input('evidence-format');
  if (evidenceFormat !== undefined && !(EVIDENCE_FORMATS as readonly string[]).includes(evidenceFormat))
    problems.push(`evidence-format must be one of ${EVIDENCE_FORMATS.join(', ')} (got "${evidenceFormat}").`);
  else if (evidenceFormat !== undefined && input('evidence-file') === undefined)
    problems.push('evidence-format needs evidence-file: it says what the file is.');
  const evidenceUri = input('evidence-uri');
  // shipgate takes only an http(s) link (a javascript: one would run wherever it is shown): said here with the other inputs.
  if (evidenceUri !== undefined && !isHttpUrl(evidenceUri)) problems.push(`evidence-uri must be an http(s) URL (got "${evidenceUri}").`);
  const evidenceOnly = ['evidence-kind', 'evidence-file', 'evidence-format', 'evidence-uri'].filter((name) => input(name) !== undefined);
  if (!evidenceName && evidenceOnly.length > 0) problems.push(`${evidenceOnly.join(', ')} need evidence-name.`);

  const inputs: ActionInputs = {
    apiUrl,
    apiKey: input('api-key'),
    audience: input('audience') ?? 'shipgate',
    repository,
    commitSha: commitSha.toLowerCase(),
    ref:
      env.GITHUB_EVENT_NAME === 'push' && env.GITHUB_REF?.startsWith('refs/heads/') && env.GITHUB_SHA === commitSha
        ? env.GITHUB_REF
        : undefined,
    waitTimeoutSeconds: whole('wait-timeout', 0, 0),
    pollIntervalSeconds: whole('poll-interval', 10, 1),
    failOnNoShip: flag('fail-on-no-ship', true),
    decide: flag('decide', true),
    evidence: evidenceName
      ? {
          name: evidenceName,
          kind: input('evidence-kind') ?? 'ci',
          status: evidenceStatus as EvidenceInputs['status'],
          file: input('evidence-file'),
          format: evidenceFormat as EvidenceFormatInput | undefined,
          uri: evidenceUri,
        }
      : undefined,
    session: mode === 'session' ? parseSessionInputs(env, problems) : undefined,
    runUrl:
      env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
        ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
        : undefined,
  };
  if (!inputs.session && !inputs.decide && !inputs.evidence)
    problems.push('decide is false and evidence-name is not set: there is nothing to do.');
  if (problems.length > 0) throw new ActionError(`Invalid inputs:\n  ${problems.join('\n  ')}`);
  return inputs;
}
