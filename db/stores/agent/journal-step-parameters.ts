import type { TurnStep } from '../../../core/agent/journal.js';
import type { ChatMessage } from '../../../core/agent/provider.js';
import type { Certificate } from '../../../core/certificates/types.js';
import type { Artifact, ToolCallEntry } from '../../../core/executions/execution.js';

/** The columns a step writes of each row, with their PostgreSQL types (db/migrations/004-executions.ts). */
const TOOL_CALL_COLUMNS = {
  seq: 'int',
  call_id: 'text',
  tool: 'text',
  arguments: 'jsonb',
  capability: 'text',
  verdict: 'text',
  reason: 'text',
  certificate_id: 'uuid',
  result_digest: 'text',
  output: 'text',
  duration_ms: 'int',
  created_at: 'timestamptz',
  agent_id: 'text',
  approved_by: 'jsonb',
  denied_by: 'jsonb',
} as const satisfies Record<keyof ToolCallEntry, string>;

/** A tool call's certificate (its kind is its table's: tool_call_certificates). */
const CERTIFICATE_COLUMNS = {
  id: 'uuid',
  theorem: 'text',
  plan_hash: 'text',
  verified_properties: 'jsonb',
  prover: 'text',
  issued_at: 'timestamptz',
  digest: 'text',
  envelope: 'jsonb',
} as const satisfies Record<Exclude<keyof Certificate, 'kind'>, string>;

const ARTIFACT_COLUMNS = {
  kind: 'text',
  name: 'text',
  content: 'text',
  digest: 'text',
  approved_for_release: 'boolean',
} as const satisfies Record<keyof Artifact, string>;

type Columns = Record<string, string>;

/** One row's columns as typed statement parameters from $`first` on: names, placeholders, values, and the next free position. */
function rowParameters(columns: Columns, first: number) {
  const names = Object.keys(columns);
  return {
    names: names.join(', '),
    placeholders: names.map((name, i) => `$${first + i}::${columns[name]}`),
    next: first + names.length,
    values(row: object | null): unknown[] {
      return names.map((name) => {
        const value = (row as Record<string, unknown> | null)?.[name];
        if (value === undefined || value === null) return null;
        return columns[name] === 'jsonb' ? JSON.stringify(value) : value;
      });
    },
  };
}

/**
 * A tool call's parameters: $2 the answer, then the entry's, the certificate's and the
 * artifact's columns (each null when absent), then, when the step carries its turn, the turn's
 * cost and message. Each column is its own typed parameter: PostgreSQL binds them directly, where
 * one JSON document per row had to be parsed and then expanded into the row (docs/benchmarks.md).
 */
export const ANSWER = '$2::jsonb';
export const toolCall = rowParameters(TOOL_CALL_COLUMNS, 3);
export const certificate = rowParameters(CERTIFICATE_COLUMNS, toolCall.next);
export const artifact = rowParameters(ARTIFACT_COLUMNS, certificate.next);

/** Placeholders of a turn's cost and assistant message, after $1 (a turn alone) or after a tool call's. */
export const turnPlaceholders = (withToolCall: boolean) => {
  const first = withToolCall ? artifact.next : 2;
  return { cost: `$${first}::int`, message: `$${first + 1}::jsonb` };
};

export interface ToolCallStep {
  entry: ToolCallEntry;
  answer: ChatMessage & { role: 'tool' };
  certificate: Certificate | null;
  artifact: Artifact | null;
}

/** The values of a step's statement, in the order of the placeholders above. */
export function stepValues(executionId: string, call: ToolCallStep | null, turn: TurnStep | null): unknown[] {
  return [
    executionId,
    ...(call
      ? [
          JSON.stringify(call.answer),
          ...toolCall.values(call.entry),
          ...certificate.values(call.certificate),
          ...artifact.values(call.artifact),
        ]
      : []),
    ...(turn ? [turn.costCents, JSON.stringify(turn.assistant)] : []),
  ];
}
