import { toolCallDigest } from '../certificates/tool-call-digest.js';
import type { ChatMessage } from './provider.js';
import type { AgentRun } from './agent-run.js';
import { decideVerdict } from './decide-verdict.js';
import type { RunEnd } from './run-end.js';

/** The answer recorded for each entry, by seq (entries and tool messages are written in step). */
export function answersBySeq(transcript: readonly ChatMessage[], seqs: { seq: number; call_id: string }[]): Map<number, string> {
  const answers = transcript.filter((m): m is ChatMessage & { role: 'tool' } => m.role === 'tool');
  const bySeq = new Map<number, string>();
  seqs.forEach((entry, i) => {
    const answer = answers[i]?.tool_call_id === entry.call_id ? answers[i] : answers.find((m) => m.tool_call_id === entry.call_id);
    if (answer) bySeq.set(entry.seq, answer.content);
  });
  return bySeq;
}

/**
 * Ends the run. A finished run's verdict and certificate are derived from what the journal
 * holds (reloaded), so the certificate covers exactly the recorded entries, resumed or not.
 */
export async function finishRun(run: AgentRun, end: RunEnd): Promise<void> {
  const { deps, execution } = run;
  if (end.status === 'cancelled') {
    await deps.journal.finish(execution.id, {
      status: 'cancelled',
      verdict: null,
      output: null,
      error: null,
      certificate: null,
      violations: [],
    });
    deps.log('agent.finished', { execution_id: execution.id, status: 'cancelled' });
    return;
  }
  const state = await deps.journal.load(execution.id);
  const recorded = state.execution;
  const output = end.status === 'completed' ? end.output : null;
  const errorCode = end.status === 'failed' ? end.code : null;
  const { verdict, violations } = decideVerdict({
    policy: state.policy,
    toolCalls: recorded.tool_calls,
    toolAnswers: answersBySeq(state.transcript, recorded.tool_calls),
    artifacts: recorded.artifacts,
    output,
    costCents: recorded.cost_cents,
    budgetCents: run.budgetCents,
    errorCode,
  });
  const certificate = run.governance.certify
    ? deps.certifier.certifyExecution({
        executionId: execution.id,
        output: output ?? '',
        verdict,
        violations,
        toolCallDigests: recorded.tool_calls.map(toolCallDigest),
        costCents: recorded.cost_cents,
        policy: recorded.policy,
        upstream: state.upstreamCertificateDigests,
        prev: recorded.certificates.at(-1)?.digest ?? null,
      })
    : null;
  const error = end.status === 'failed' ? { code: end.code, message: end.message } : null;
  await deps.journal.finish(execution.id, { status: end.status, verdict, output, error, certificate, violations });
  deps.log('agent.finished', {
    execution_id: execution.id,
    status: end.status,
    verdict,
    error_code: errorCode,
    violations: violations.length,
  });
}
