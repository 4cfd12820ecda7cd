import { recordedArguments } from './recorded-arguments.js';
import { sha256Hex } from '../canonical-json.js';
import type { Certificate } from '../certificates/types.js';
import type { Artifact, ToolCallEntry } from '../executions/execution.js';
import { appendMessage, lastCertificateDigest, nextSeq, type AgentRun } from './agent-run.js';
import type { ChatMessage, ToolCallRequest } from './provider.js';
import { recordTurnUnlessCarried } from './record-turn-unless-carried.js';
import { redactToolAnswer } from './redact-tool-answer.js';
import { runTool } from './run-tool.js';
import type { ToolContext } from './tools/tool.js';
import { truncateUtf8 } from './truncate-utf8.js';

/** The entry keeps this much of a tool's output; result_digest covers all of it. */
export const ENTRY_OUTPUT_BYTES = 4 * 1024;
/** The model is answered with this much of a tool's output (a 1 MiB page would blow budget and context). */
export const ANSWER_OUTPUT_BYTES = 32 * 1024;

function toolContext(run: AgentRun): Omit<ToolContext, 'signal'> {
  return {
    execution: run.execution,
    upstreamArtifacts: run.state.upstreamArtifacts,
    repoReader: run.deps.repoReader,
    httpAllowlist: run.deps.httpAllowlist,
    web: run.deps.web,
  };
}

/**
 * One tool call, start to end: verify, run it if allowed, certify it, and record the entry
 * together with the answer the model gets (a denial is answered "DENIED: <reason>"), and with
 * the turn that asked for it when that turn is not recorded yet.
 */
export async function handleToolCall(run: AgentRun, call: ToolCallRequest): Promise<ToolCallEntry> {
  const { deps, execution } = run;
  await recordTurnUnlessCarried(run, call);
  const seq = nextSeq(run);
  const createdAt = new Date().toISOString();
  const started = performance.now();
  const context = toolContext(run);
  const verification = await run.governance.verify(call, {
    tools: run.tools,
    policy: run.state.policy,
    permissions: execution.permissions,
    costCents: run.costCents,
    budgetCents: run.budgetCents,
    seq,
    toolContext: context,
  });
  // A call by a tool's former name is that tool's call, recorded and certified under its name.
  const toolName = verification.tool?.name ?? call.name;
  // The tool runs with the arguments the model wrote; they are recorded and signed with their secrets replaced.
  const args = recordedArguments(verification.arguments);
  let output: string | null = null;
  let artifact: Artifact | null = null;
  let resultDigest: string | null = null;
  let certificate: Certificate | null = null;
  if (verification.verdict === 'allowed') {
    const result = redactToolAnswer(run.state.policy.output_rules, await runTool(verification.tool, verification.input, context));
    output = result.output;
    artifact = result.artifact ?? null;
    resultDigest = sha256Hex(output);
    if (run.governance.certify) {
      certificate = deps.certifier.certifyToolCall({
        executionId: execution.id,
        seq,
        tool: toolName,
        arguments: args,
        capability: verification.tool.capability,
        capabilities: execution.permissions,
        verifiedProperties: verification.properties,
        policy: execution.policy,
        resultDigest,
        prev: lastCertificateDigest(run),
      });
    }
  }
  const entry: ToolCallEntry = {
    seq,
    call_id: call.id,
    tool: toolName,
    arguments: args,
    capability: verification.tool?.capability ?? null,
    verdict: verification.verdict,
    reason: verification.verdict === 'denied' ? verification.reason : null,
    certificate_id: certificate?.id ?? null,
    result_digest: resultDigest,
    output: output === null ? null : truncateUtf8(output, ENTRY_OUTPUT_BYTES),
    duration_ms: Math.round(performance.now() - started),
    created_at: createdAt,
  };
  const answer: ChatMessage & { role: 'tool' } = {
    role: 'tool',
    tool_call_id: call.id,
    content: output === null ? `DENIED: ${entry.reason}` : truncateUtf8(output, ANSWER_OUTPUT_BYTES),
  };
  await deps.journal.recordToolCall(execution.id, entry, answer, certificate, artifact, run.unrecordedTurn ?? undefined);
  run.unrecordedTurn = null;
  run.toolCalls.push(entry);
  appendMessage(run, answer);
  if (certificate) run.certificates.push(certificate);
  deps.log('agent.tool_call', {
    execution_id: execution.id,
    seq,
    tool: toolName,
    ...(toolName === call.name ? {} : { called_as: call.name }),
    verdict: entry.verdict,
    reason: entry.reason,
    duration_ms: entry.duration_ms,
  });
  return entry;
}
