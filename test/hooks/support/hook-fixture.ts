import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Response } from 'supertest';
import { verifyCommand } from '../../../server/verify-command.js';
import type { TestApp } from '../../support/test-app.js';

/** The repository root the fake agent runs in: the hook input's `cwd`. */
export const REPO = '/work/acme-shop';

/** A policy a coding agent can run under: every tool kind within its ceiling, with the rules of docs/agent-hooks.md's example. */
export const HOOK_POLICY = {
  ceiling: ['shell:exec', 'fs:*', 'network:*', 'agent:spawn', 'mcp:*', 'tool:*'],
  tool_rules: [
    { match: { command: 'git push --force*' }, verdict: 'deny' },
    { match: { read: '.env*' }, verdict: 'deny' },
    { match: { write: '.github/workflows/**' }, verdict: 'ask' },
  ],
  ask_timeout_seconds: 5,
};

let policies = 0;

/** Creates a custom policy (HOOK_POLICY with `overrides`); its name. */
export async function hookPolicy(t: TestApp, overrides: Record<string, unknown> = {}): Promise<string> {
  const name = `hooks-${++policies}-${Date.now()}`;
  await t.request
    .post('/api/v1/policies')
    .set(t.admin.auth)
    .send({ name, ...HOOK_POLICY, ...overrides })
    .expect(201);
  return name;
}

/** An agent session for hooks only (no MCP servers), opened by the ADMIN: its id and token. */
export async function hookSession(t: TestApp, policy: string): Promise<{ id: string; token: string }> {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'claude run', repo_root: 'acme/shop', servers: [], compliance_policy: policy });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, token: res.body.token };
}

let calls = 0;

/** Claude Code's PreToolUse input for one call (with a fresh tool_use_id unless `extra` names one). */
export function claudePre(tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    session_id: 'claude-run-1',
    transcript_path: '/tmp/transcript.jsonl',
    cwd: REPO,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: `toolu_${++calls}`,
    ...extra,
  };
}

/** The PostToolUse input completing `pre`. */
export function claudePost(pre: ReturnType<typeof claudePre>, response: unknown, durationMs = 12) {
  return { ...pre, hook_event_name: 'PostToolUse', tool_response: response, duration_ms: durationMs };
}

/** POSTs a hook input to shipgate's endpoint for `agent`. */
export function postHook(t: TestApp, agent: string, token: string, body: unknown) {
  return t.request
    .post(`/api/v1/hooks/${agent}`)
    .set('Authorization', `Bearer ${token}`)
    .send(body as object);
}

/** Claude's answer: the decision and its reason. */
export function decisionOf(res: Response): { decision: string; reason: string } {
  const out = res.body.hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
  return { decision: out.permissionDecision, reason: out.permissionDecisionReason };
}

/** The session's execution record, as its ADMIN reads it. */
export async function executionRecord(t: TestApp, id: string) {
  return (await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body;
}

/** What `shipgate verify` says of the session's compliance export: its exit code and output. */
export async function verifiedExport(t: TestApp, id: string): Promise<{ code: number; out: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-hooks-'));
  const exported = await t.request.get(`/api/v1/compliance/${id}/export`).set(t.admin.auth).expect(200);
  const keys = await t.request.get('/api/v1/compliance/keys').expect(200);
  fs.writeFileSync(path.join(dir, 'package.json'), exported.text);
  fs.writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(keys.body));
  const out: string[] = [];
  const code = await verifyCommand([path.join(dir, 'package.json'), '--keys', path.join(dir, 'keys.json')], {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
  });
  return { code, out: out.join('\n') };
}
