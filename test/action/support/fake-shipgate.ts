import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, startHttpServer, type FakeHttpServer } from '../../fakes/fake-http.js';

// A hostile "shipgate" for the Action's tests: it answers each request as the test says, so a
// test can send what a real shipgate never would (a SHIP for another commit, a hooks file for
// another path, a body that never ends) and see what the Action does with it.

export type Answer = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FakeShipgate extends FakeHttpServer {
  /** How the next requests are answered, by method and path (without the query): `GET /api/v1/releases/decision`. */
  answers: Record<string, Answer>;
  /** Every request seen, as `METHOD /path?query`. */
  requests: string[];
}

export async function startFakeShipgate(): Promise<FakeShipgate> {
  const fake = { answers: {}, requests: [] } as unknown as FakeShipgate;
  const server = await startHttpServer(async (req, res) => {
    fake.requests.push(`${req.method} ${req.url}`);
    const answer = fake.answers[`${req.method} ${(req.url ?? '').split('?')[0]}`];
    if (!answer) return sendJson(res, 404, { detail: `the fake shipgate has no answer for ${req.method} ${req.url}` });
    await answer(req, res);
  });
  return Object.assign(fake, server);
}

export const REPO = 'acme/api';
export const COMMIT = '0123456789abcdef0123456789abcdef01234567';
export const SNAPSHOT = '6f1c2a52-7f0e-4c1b-9c55-2f5f5a8c9d10';
export const SESSION = '0b8e6b1e-3f7a-4d4c-8a43-5d0c2c0e9f11';

/** A well-formed SHIP for REPO@COMMIT, as shipgate answers GET /releases/decision, with `changes` over it. */
export function decision(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    decision: 'SHIP',
    repo_root: REPO,
    commit_sha: COMMIT,
    snapshot_id: SNAPSHOT,
    snapshot_status: 'decided',
    allowed_promotions: ['attested'],
    blockers: [],
    overridden: [],
    explanation: [],
    evaluated_at: '2025-01-01T00:00:00.000Z',
    decision_url: `https://gate.example/studio#/releases/${REPO}/${COMMIT}`,
    ...changes,
  };
}

export function blocker(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    code: 'required_check_failed',
    component: 'check:build',
    reason: 'The required check build failed.',
    remediation_suggestion: 'Fix the build.',
    waitable: false,
    ...changes,
  };
}

/** POST /agent-sessions: an opened session, with `changes` over it. */
export function agentSession(url: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: SESSION,
    execution_id: SESSION,
    mcp_url: `${url}/api/v1/mcp/sessions/${SESSION}`,
    token: 'sgs_the-session-token-0123456789',
    expires_at: '2030-01-01T00:00:00.000Z',
    branch: 'main',
    workflow_run: null,
    ...changes,
  };
}

/** POST /releases/evidence: the record of evidence "tests" (no document) for REPO@COMMIT, with `changes` over it. */
export function evidenceRecord(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '2d6f0c8e-1b7a-4f3e-9a5d-7c4b3e2a1f00',
    repo_root: REPO,
    commit_sha: COMMIT,
    ref: null,
    kind: 'ci',
    name: 'tests',
    status: 'passed',
    digest: null,
    uri: null,
    produced_at: '2025-01-01T00:00:00.000Z',
    recorded_by: null,
    workflow_run: null,
    format: null,
    summary: null,
    document: null,
    created_at: '2025-01-01T00:00:00.000Z',
    ...changes,
  };
}

const PATHS = { 'claude-code': '.claude/settings.json', copilot: '.github/hooks/shipgate.json', gemini: '.gemini/settings.json' };

/** GET /agent-sessions/{id}/hooks: the agent's hooks file, with `changes` over it. */
export function hooksFile(url: string, agent: keyof typeof PATHS, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent,
    path: PATHS[agent],
    settings: { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'http', url: `${url}/api/v1/hooks/${agent}` }] }] } },
    env: { SHIPGATE_TOKEN: 'the session token' },
    timeout_seconds: 40,
    ...changes,
  };
}

/** Answers with `body` as JSON (any value, `undefined` for an empty body) and `status`. */
export const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

/** Answers with `text` as it is. */
export const text =
  (body: string, status = 200, contentType = 'text/html'): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  };
