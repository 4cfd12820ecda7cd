import { recordedArguments } from '../agent/recorded-arguments.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import { holdsNonFiniteNumber, isRecordableJson } from '../json-value-holds.js';
import { isStorableText, storableJson, storableText } from '../storable-text.js';
import type { Certificate } from '../certificates/types.js';
import type { Certifier } from '../agent/certifier.js';
import { ENTRY_OUTPUT_BYTES } from '../agent/handle-tool-call.js';
import { redactOutput } from '../agent/output-rules.js';
import { truncateUtf8 } from '../agent/truncate-utf8.js';
import type { DenialReason, ToolCallEntry } from '../executions/execution.js';
import { nextCallNumber, sessionIsOpen, type AgentSession, type AgentSessionCallState } from './agent-session.js';
import { missingCapability } from './gateway-tools.js';
import { redactToolResult } from './redact-tool-result.js';
import type { UpstreamResult } from './mcp-upstream-client.js';
import type { ResolvedTool, SessionUpstreams } from './session-upstreams.js';
import type { Policy, PolicyRef } from '../policies/policy.js';
import { askedCapability, DEFAULT_ASK_TIMEOUT_SECONDS } from '../policies/asked-capability.js';
import type { HeldCallState } from './agent-call-approvals.js';
import type { GatewayCallJournal } from './gateway-call-journal.js';
import { heldCallOutcome, type CallApprover, type CallDenier } from './held-call-outcome.js';
import { quarantined } from './quarantined-tool-denial.js';

/** An upstream that does not answer within this is cut off; the agent gets an error result. */
export const UPSTREAM_TIMEOUT_MS = 30_000;

/** What an allowed gateway call was shown to satisfy, in the order checked (its certificate's verified_properties). */
export const GATEWAY_VERIFIED_PROPERTIES = [
  'session_open',
  'tool_known',
  'tool_definition_pinned',
  'arguments_valid',
  'capability_not_forbidden',
  'capability_granted',
  'within_call_limit',
];

export interface GatewayDeps {
  /** Records the call at the session's next seq (core/mcp/gateway-call-journal.ts). */
  journal: GatewayCallJournal;
  /** The session's state read again, when another call took the seq this one was read with. */
  readState(id: string): Promise<AgentSessionCallState | null>;
  certifier: Certifier;
  /** Null when `value` satisfies the JSON Schema, else why not. */
  checkArguments(schema: Record<string, unknown>, value: unknown): string | null;
  log(event: string, fields: Record<string, unknown>): void;
  now(): Date;
  upstreamTimeoutMs?: number;
  /**
   * Holds a call whose capability the policy puts under `ask` until it is decided (recorded
   * pending, then awaited: core/mcp/await-call-approval.ts). Absent: such calls are denied.
   */
  hold?(call: HeldCall): Promise<HeldCallState>;
}

/** A call held for a person's decision (docs/mcp-gateway.md, "Asking a person"). */
export interface HeldCall {
  seq: number;
  tool: string;
  arguments: Record<string, unknown>;
  capability: string;
  timeoutSeconds: number;
}

/** What stays the same for the whole session: its policy (with its reference) and resolved permissions. */
export interface GatewayTerms {
  policy: Policy;
  policyRef: PolicyRef;
  permissions: readonly string[];
}

/** The session's upstreams as a call needs them (core/mcp/session-upstreams.ts). */
export type GatewayUpstreams = Pick<SessionUpstreams, 'call' | 'refusal'>;

/** What the agent gets: an MCP tool result. `recorded` is false only for a session that is no longer open; `denied`: the call was recorded denied. */
export interface GatewayAnswer {
  content: Record<string, unknown>[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
  recorded: boolean;
  denied: boolean;
}

const text = (t: string) => [{ type: 'text', text: t }];

/**
 * The upstream's result through the policy's output rules, value by value (core/mcp/redact-tool-result.ts).
 * Under `secrets`, a result holding content the rules cannot scan is refused: what could not be
 * redacted does not reach the agent (docs/mcp-gateway.md, "Redaction").
 */
function passedResult(rules: readonly string[], server: string, answer: UpstreamResult): { result: UpstreamResult; refused: string[] } {
  const { result, unscannable } = redactToolResult(rules, answer);
  if (unscannable.length === 0 || !rules.includes('secrets')) return { result, refused: [] };
  const why = `REFUSED: the result of upstream '${server}' was not passed on: the output rule 'secrets' cannot scan ${unscannable.join('; ')}`;
  return { result: { content: text(why), isError: true }, refused: unscannable };
}

/** The result as the record keeps it: the text items, and any other item as JSON. */
function resultText(result: UpstreamResult): string {
  return result.content
    .map((item) => (item.type === 'text' && typeof item.text === 'string' ? item.text : JSON.stringify(item)))
    .join('\n');
}

function denialText(reason: DenialReason, capability: string | null, detail?: string): string {
  const what = [capability, detail].filter(Boolean).join(': ');
  return what ? `DENIED: ${reason}: ${what}` : `DENIED: ${reason}`;
}

/** What an approved call was shown to satisfy beyond the gateway's checks. */
const APPROVED_PROPERTIES = [...GATEWAY_VERIFIED_PROPERTIES, 'approved_by_person'];

/** The check each gateway denial fails (GATEWAY_VERIFIED_PROPERTIES); a denial's certificate lists the ones before it. */
const FAILED_CHECK: Partial<Record<DenialReason, string>> = {
  unknown_tool: 'tool_known',
  awaiting_approval: 'tool_definition_pinned',
  tool_rejected: 'tool_definition_pinned',
  invalid_arguments: 'arguments_valid',
  forbidden_by_policy: 'capability_not_forbidden',
  capability_not_granted: 'capability_granted',
  tool_call_limit: 'within_call_limit',
};

function propertiesBefore(reason: DenialReason): string[] {
  const failed = GATEWAY_VERIFIED_PROPERTIES.indexOf(FAILED_CHECK[reason] ?? '');
  return GATEWAY_VERIFIED_PROPERTIES.slice(0, failed < 0 ? 1 : failed);
}

/**
 * One `tools/call` through the gateway (docs/mcp-gateway.md, "Governed agent sessions"): verify
 * (session open, tool known, arguments against its input schema, capabilities, call limit),
 * forward an allowed call to its upstream with the upstream's headers, pass the result through
 * the policy's output rules, certify it, and record the entry like a built-in tool call. A
 * denied call is recorded too and answered `isError` naming what was missing. `state` is the
 * session's state read for this call (its status, expiry, next seq and last certificate) and
 * `tool` the tool the call names as its upstream lists it (null: unknown), both looked up by the
 * caller (at once). The call limit and a held call's listing use the seq read with `state`; the
 * record takes the session's next free seq at the end (several replicas may serve one session).
 */
export async function callThroughGateway(
  deps: GatewayDeps,
  session: Pick<AgentSession, 'id' | 'max_tool_calls'>,
  terms: GatewayTerms,
  state: AgentSessionCallState,
  tool: ResolvedTool | null,
  upstreams: GatewayUpstreams,
  sent: { name: string; arguments: Record<string, unknown> },
): Promise<GatewayAnswer> {
  const { policy, permissions } = terms;
  // A NUL or a lone surrogate cannot be recorded: such arguments are refused before any upstream sees them, and the
  // call recorded (and signed) with U+FFFD in their place. Forwarded first, the call ran and then went unrecorded.
  const recordable = isRecordableJson(sent.arguments) && isStorableText(sent.name);
  const call = recordable ? sent : { name: storableText(sent.name), arguments: storableJson(sent.arguments) as Record<string, unknown> };
  // What is held, recorded, signed and exported: the arguments with their secrets replaced; the upstream gets them as sent.
  const recordedArgs = recordedArguments(call.arguments);
  if (!sessionIsOpen(state, deps.now())) {
    return { content: text('This agent session has ended; open a new one.'), isError: true, recorded: false, denied: false };
  }
  const seq = state.next_seq;
  const started = performance.now();
  const createdAt = deps.now().toISOString();
  let denial: { reason: DenialReason; capability: string | null; detail?: string } | null;
  // An upstream whose credentials could not be minted lists no tools, so its tools are unknown: say why.
  const noCredentials = async () => {
    const why = await upstreams.refusal(call.name, tool?.upstream);
    return why ? { reason: 'upstream_credentials_unavailable' as const, capability: null, detail: why } : null;
  };
  if (!tool) denial = (await noCredentials()) ?? { reason: 'unknown_tool', capability: null };
  else if (tool.pin !== 'pinned') denial = quarantined(call.name, tool);
  else if (!recordable) denial = { reason: 'invalid_arguments', capability: null, detail: 'they hold a NUL or a lone UTF-16 surrogate' };
  else if (deps.checkArguments(tool.tool.inputSchema, call.arguments) !== null) denial = { reason: 'invalid_arguments', capability: null };
  else denial = missingCapability(tool.capabilities, policy, permissions);
  if (!denial && nextCallNumber(state) > session.max_tool_calls) denial = { reason: 'tool_call_limit', capability: null };
  if (!denial) denial = await noCredentials();
  // A call under `ask` waits here, its MCP request open, until a person decides it or its deadline passes.
  let approvedBy: CallApprover | undefined;
  let deniedBy: CallDenier | null = null;
  const asked = !denial && tool ? askedCapability(tool.capabilities, policy) : null;
  if (asked) {
    const held = deps.hold
      ? await deps.hold({
          seq,
          tool: call.name,
          arguments: recordedArgs,
          capability: asked,
          timeoutSeconds: policy.ask_timeout_seconds ?? DEFAULT_ASK_TIMEOUT_SECONDS,
        })
      : null;
    if (held?.decision === 'session_ended')
      return {
        content: text('This agent session ended while the call awaited approval; it was not made.'),
        isError: true,
        recorded: false,
        denied: false,
      };
    const outcome = heldCallOutcome(held, asked);
    if ('approvedBy' in outcome) approvedBy = outcome.approvedBy;
    else ({ denial, deniedBy } = outcome);
  }

  let result: UpstreamResult | null = null;
  let resultDigest: string | null = null;
  if (!denial && tool) {
    try {
      const answer = await upstreams.call(tool, call.arguments, deps.upstreamTimeoutMs ?? UPSTREAM_TIMEOUT_MS);
      // JSON.parse read a number past the double range as Infinity: neither digested nor recorded as sent (it was an
      // internal error, the call that ran upstream unrecorded). The upstream failed to answer in JSON shipgate keeps.
      if (holdsNonFiniteNumber(answer)) throw new Error('its result holds a number beyond the double range (such as 1e400)');
      const passed = passedResult(policy.output_rules, tool.server, answer);
      result = passed.result;
      if (passed.refused.length > 0)
        deps.log('mcp.tool_result_refused', { execution_id: session.id, seq, tool: call.name, unscannable: passed.refused });
    } catch (error) {
      const message = redactOutput(policy.output_rules, error instanceof Error ? error.message : String(error));
      result = { content: text(`ERROR: upstream '${tool.server}' failed: ${message}`), isError: true };
    }
    resultDigest = sha256Hex(canonicalJson(result));
  }
  const certify = (atSeq: number, prev: string | null): Certificate | null => {
    if (!denial && tool && resultDigest !== null)
      return deps.certifier.certifyToolCall({
        executionId: session.id,
        seq: atSeq,
        tool: call.name,
        arguments: recordedArgs,
        capability: tool.capabilities[0],
        capabilities: [...permissions],
        verifiedProperties: approvedBy ? APPROVED_PROPERTIES : GATEWAY_VERIFIED_PROPERTIES,
        policy: terms.policyRef,
        resultDigest,
        ...(approvedBy ? { approvedBy } : {}),
        prev,
        toolDefinitionDigest: tool.definitionDigest,
      });
    if (!denial) return null;
    // Refused calls are signed too, in the same chain: the session's record is certified call by call.
    return deps.certifier.certifyDeniedToolCall({
      executionId: session.id,
      seq: atSeq,
      tool: call.name,
      arguments: recordedArgs,
      reason: denial.reason,
      capability: denial.capability,
      capabilities: [...permissions],
      // A held call that was not approved passed every check of the gateway's own.
      verifiedProperties: asked ? GATEWAY_VERIFIED_PROPERTIES : propertiesBefore(denial.reason),
      policy: terms.policyRef,
      prev,
      ...(tool ? { toolDefinitionDigest: tool.definitionDigest } : {}),
      ...(deniedBy ? { deniedBy } : {}),
    });
  };
  // The agent gets the result as the upstream sent it; the record keeps what PostgreSQL can store.
  const output = result ? storableText(resultText(result)) : null;
  const answerText = denial ? denialText(denial.reason, denial.capability, denial.detail) : (output ?? '');
  const durationMs = Math.round(performance.now() - started);
  // The seq and chain are the session's as recorded, whichever replica recorded last: a seq
  // another call took first is read again and the call signed at the next one.
  let at = state;
  let entry: ToolCallEntry;
  for (;;) {
    entry = {
      seq: at.next_seq,
      call_id: `mcp-${at.next_seq}`,
      tool: call.name,
      arguments: recordedArgs,
      capability: denial ? denial.capability : (tool?.capabilities[0] ?? null),
      verdict: denial ? 'denied' : 'allowed',
      reason: denial?.reason ?? null,
      certificate_id: null,
      result_digest: resultDigest,
      output: output === null ? null : truncateUtf8(output, ENTRY_OUTPUT_BYTES),
      duration_ms: durationMs,
      created_at: createdAt,
      ...(approvedBy && !denial ? { approved_by: approvedBy } : {}),
      ...(deniedBy ? { denied_by: deniedBy } : {}),
    };
    const certificate = certify(at.next_seq, at.last_certificate_digest);
    entry.certificate_id = certificate?.id ?? null;
    const answer = { role: 'tool' as const, tool_call_id: entry.call_id, content: answerText };
    if ((await deps.journal.record(session.id, entry, answer, certificate)) !== 'seq_taken') break;
    const again = await deps.readState(session.id);
    if (!again) break;
    at = again;
  }
  deps.log('mcp.tool_call', {
    execution_id: session.id,
    seq: entry.seq,
    tool: call.name,
    verdict: entry.verdict,
    reason: entry.reason,
    capability: denial?.capability ?? null,
    duration_ms: entry.duration_ms,
  });
  if (denial || !result) return { content: text(answerText), isError: true, recorded: true, denied: denial !== null };
  return { ...result, recorded: true, denied: false };
}
