import { ActionError } from './action-error.js';
import { summaryDetails, summaryLine } from './evidence-summary.js';
import type { AgentSession, Blocker, EvidenceRecord, HookSettingsFile, ReleaseDecision } from './shipgate-types.js';

// What shipgate answers is checked before the Action acts on it or sets an output from it: the
// fields the Action reads, of the kind the API documents them (api/schemas/*, /openapi.json).
// A server that answers anything else (a proxy's HTML page, a hostile or broken service) fails
// the step with a message naming what was wrong, never a TypeError and never a pass.

/** A 2xx answer whose body is not JSON (or is empty): what was expected is the caller's to say. */
export class NotJson {
  constructor(readonly text: string) {}
}

/**
 * Server text as one line of at most `max` characters, for the log: control characters (CR, LF,
 * and every other) and Unicode line separators become spaces, so no line of it can start a
 * workflow command (`::warning::`, `::add-mask::`, ...) and a long text is cut.
 */
export function oneLine(text: string, max = 1000): string {
  const flat = text.replace(/[\p{Cc}\u2028\u2029]/gu, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** A value as the message about it shows it: JSON, one line, short. */
const shown = (value: unknown) => oneLine(value === undefined ? 'undefined' : JSON.stringify(value), 80);

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHA = /^[0-9a-f]{40}$/i;
/** A bearer token the runner can mask: printable ASCII, no space. */
const TOKEN = /^[\x21-\x7e]{1,4096}$/;

export const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 2048 && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/** Checks fields of one object, gathering every problem, each naming the field (`blockers[0].waitable`). */
class Check {
  readonly problems: string[] = [];
  constructor(
    private readonly value: Fields,
    private readonly prefix = '',
  ) {}

  field(name: string, ok: (value: unknown) => boolean, expected: string): void {
    const value = this.value[name];
    if (ok(value)) return;
    this.problems.push(
      value === undefined ? `${this.prefix}${name} is missing` : `${this.prefix}${name} is ${shown(value)}, not ${expected}`,
    );
  }
  string(name: string) {
    this.field(name, (v) => typeof v === 'string', 'a string');
  }
  uuid(name: string) {
    this.field(name, (v) => typeof v === 'string' && UUID.test(v), 'a UUID');
  }
}

/** What the body is when it is not an object at all, or undefined when it is one. */
function notAnObject(payload: unknown): string | undefined {
  if (payload instanceof NotJson) return payload.text.trim() === '' ? 'an empty body' : `not JSON: "${oneLine(payload.text.trim(), 200)}"`;
  if (payload === null) return 'JSON null, not an object';
  if (Array.isArray(payload)) return 'a JSON array, not an object';
  if (typeof payload !== 'object') return `JSON ${shown(payload)}, not an object`;
  return undefined;
}

const notA = (noun: string, what: string, problems: string[]) =>
  new ActionError(`shipgate answered something that is not ${noun} to ${what}: ${problems.join('; ')}.`);

/** The body as an object whose fields `check` accepts; otherwise the step fails naming every problem. */
function read(payload: unknown, noun: string, what: string, check: (c: Check, value: Fields) => void): Fields {
  const shape = notAnObject(payload);
  if (shape) throw notA(noun, what, [shape]);
  const c = new Check(payload as Fields);
  check(c, payload as Fields);
  if (c.problems.length > 0) throw notA(noun, what, c.problems);
  return payload as Fields;
}

/** The fields of a decision the Action reads (outputs, log, job summary). */
export type DecisionAnswer = Pick<ReleaseDecision, 'decision' | 'repo_root' | 'commit_sha' | 'snapshot_id' | 'blockers' | 'decision_url'>;

const shortSha = (sha: string) => oneLine(sha.slice(0, 12), 12);

/** What an answer about a commit names it by (a decision, an evidence record): `repo_root` and a full `commit_sha`. */
function subjectFields(c: Check): void {
  c.string('repo_root');
  c.field('commit_sha', (v) => typeof v === 'string' && SHA.test(v), 'a 40-character commit SHA');
}

/**
 * An answer (`noun`) whose subject fields passed `subjectFields` is about `repository`@`commitSha`,
 * compared as shipgate does (the repository without regard to case); otherwise the step fails
 * naming both. Returns what was asked as messages name it (`acme/api@0123456789ab`).
 */
function aboutAsked(noun: string, answer: { repo_root: string; commit_sha: string }, repository: string, commitSha: string): string {
  const asked = `${repository}@${commitSha.slice(0, 12)}`;
  if (answer.repo_root.toLowerCase() !== repository.toLowerCase() || answer.commit_sha.toLowerCase() !== commitSha.toLowerCase())
    throw new ActionError(
      `shipgate answered ${noun} for ${oneLine(answer.repo_root, 200)}@${shortSha(answer.commit_sha)}, not ${asked}: refused.`,
    );
  return asked;
}

/**
 * GET /releases/decision: a decision for `repository`@`commitSha` (compared as shipgate does:
 * the repository without regard to case), well-formed, and SHIP if and only if it has no
 * blocker. Anything else fails the step: fail closed.
 */
export function readDecision(payload: unknown, repository: string, commitSha: string, what: string): DecisionAnswer {
  const answer = read(payload, 'a decision', what, (c, value) => {
    c.field('decision', (v) => v === 'SHIP' || v === 'NO_SHIP', 'SHIP or NO_SHIP');
    subjectFields(c);
    c.uuid('snapshot_id');
    c.field('blockers', Array.isArray, 'a list');
    if (Array.isArray(value.blockers))
      value.blockers.forEach((item: unknown, i) => {
        if (!isObject(item)) return c.problems.push(`blockers[${i}] is not an object`);
        const b = new Check(item, `blockers[${i}].`);
        for (const name of ['code', 'component', 'reason', 'remediation_suggestion']) b.string(name);
        b.field('waitable', (v) => typeof v === 'boolean', 'true or false');
        c.problems.push(...b.problems);
      });
    c.field('decision_url', isHttpUrl, 'an http(s) URL');
  }) as DecisionAnswer;
  const asked = aboutAsked('a decision', answer, repository, commitSha);
  const blockers = answer.blockers.length;
  if (answer.decision === 'SHIP' && blockers > 0)
    throw new ActionError(
      `shipgate answered a contradictory decision for ${asked}: SHIP with ${blockers} blocker${blockers === 1 ? '' : 's'} ` +
        `(${oneLine(answer.blockers.map((b) => `${b.code} (${b.component})`).join(', '), 300)}); a SHIP has none. Refused.`,
    );
  if (answer.decision === 'NO_SHIP' && blockers === 0)
    throw new ActionError(`shipgate answered a contradictory decision for ${asked}: NO_SHIP without a blocker. Refused.`);
  return {
    decision: answer.decision,
    repo_root: answer.repo_root,
    commit_sha: answer.commit_sha.toLowerCase(),
    snapshot_id: answer.snapshot_id,
    blockers: answer.blockers.map(({ code, component, reason, remediation_suggestion, waitable }): Blocker => ({
      code,
      component,
      reason,
      remediation_suggestion,
      waitable,
    })),
    // Normalised: a link the job summary can put in an href as it is.
    decision_url: new URL(answer.decision_url).href,
  };
}

/** POST /agent-sessions: the fields the Action reads and hands on (the token is never shown in a message). */
export function readAgentSession(payload: unknown, what: string): AgentSession {
  return read(payload, 'an agent session', what, (c, value) => {
    c.uuid('id');
    c.uuid('execution_id');
    c.field('mcp_url', isHttpUrl, 'an http(s) URL');
    if (typeof value.token === 'string') {
      if (!TOKEN.test(value.token)) c.problems.push('token is not one the runner can mask (printable ASCII without spaces, at most 4096)');
    } else c.string('token');
    c.string('expires_at');
    c.field('branch', (v) => v === null || typeof v === 'string', 'a string or null');
  }) as AgentSession;
}

/**
 * GET /agent-sessions/{id}/hooks for `agent`: well-formed, for that agent, and naming the one
 * file the Action writes for it (`expectedPath`); shipgate names no other (docs/action.md).
 */
export function readHookSettingsFile(payload: unknown, agent: string, expectedPath: string, what: string): HookSettingsFile {
  const file = read(payload, 'a hook configuration', what, (c, value) => {
    c.string('agent');
    c.string('path');
    c.field('settings', isObject, 'an object');
    if (isObject(value.settings) && value.settings.hooks !== undefined) {
      const hooks = value.settings.hooks;
      if (!isObject(hooks)) c.problems.push(`settings.hooks is ${shown(hooks)}, not an object`);
      else
        for (const [event, entries] of Object.entries(hooks))
          if (!Array.isArray(entries)) c.problems.push(`settings.hooks.${oneLine(event, 40)} is ${shown(entries)}, not a list`);
    }
    c.field('env', (v) => isObject(v) && Object.values(v).every((x) => typeof x === 'string'), 'an object of strings');
    if (isObject(value.env) && value.env.SHIPGATE_URL !== undefined && !isHttpUrl(value.env.SHIPGATE_URL))
      c.problems.push(`env.SHIPGATE_URL is ${shown(value.env.SHIPGATE_URL)}, not an http(s) URL`);
    c.field('timeout_seconds', (v) => typeof v === 'number' && Number.isFinite(v), 'a number');
  }) as HookSettingsFile;
  if (file.agent !== agent)
    throw new ActionError(`shipgate answered ${oneLine(file.agent, 40)}'s hook configuration, not ${agent}'s: refused.`);
  if (file.path !== expectedPath)
    throw new ActionError(
      `shipgate named ${oneLine(file.path, 300)} for ${agent}'s hook configuration, not ${expectedPath}: refused, nothing was written.`,
    );
  return file;
}

/** What an evidence upload sent that its record must repeat. */
export interface UploadedEvidence {
  repository: string;
  commitSha: string;
  name: string;
  status: string;
}

/**
 * POST /releases/evidence: a record of what was uploaded: for `repository`@`commitSha` (as a
 * decision is checked), under its name (as shipgate trims it) and with its status; the fields the
 * Action prints, and what shipgate read of the document, readable. A record of another commit, or
 * saying `passed` for a `failed` upload, is no proof that this upload was recorded: the step fails.
 */
export function readEvidenceRecord(payload: unknown, sent: UploadedEvidence, what: string): EvidenceRecord {
  const record = read(payload, 'an evidence record', what, (c, value) => {
    subjectFields(c);
    c.string('name');
    c.string('status');
    c.field('digest', (v) => v === null || v === undefined || typeof v === 'string', 'a string or null');
    c.field('format', (v) => v === null || v === undefined || typeof v === 'string', 'a string or null');
    c.field('summary', (v) => v === null || v === undefined || isObject(v), 'an object or null');
    if (!isObject(value.summary)) return;
    try {
      const summary = value.summary as NonNullable<EvidenceRecord['summary']>;
      const line = summaryLine(summary);
      const details = summaryDetails(summary);
      if (typeof line !== 'string' || (details && !details.items.every((item) => typeof item === 'string'))) throw new Error('not text');
    } catch {
      c.problems.push(`summary is not what shipgate reads of a document (format ${shown(value.summary.format)})`);
    }
  }) as EvidenceRecord;
  const asked = aboutAsked('an evidence record', record, sent.repository, sent.commitSha);
  if (record.name !== sent.name.trim() || record.status !== sent.status)
    throw new ActionError(
      `shipgate answered a record of evidence ${JSON.stringify(oneLine(record.name, 200))} (${oneLine(record.status, 40)}) for ${asked}, ` +
        `not of the ${JSON.stringify(oneLine(sent.name, 200))} (${sent.status}) uploaded: refused.`,
    );
  return record;
}
