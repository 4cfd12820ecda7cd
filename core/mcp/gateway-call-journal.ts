import type { ChatMessage } from '../agent/provider.js';
import type { Certificate } from '../certificates/types.js';
import type { ToolCallEntry } from '../executions/execution.js';

/** What recording a gateway call at its seq came to: `seq_taken` when another call of the session (on any replica) took that seq first. */
export type GatewayCallRecording = 'recorded' | 'seq_taken' | 'ended';

/**
 * Records gateway calls (docs/mcp-gateway.md, "Any replica serves any session"): one statement
 * per call, which inserts the entry, its answer and its certificate only while its seq is still
 * free, so two replicas serving one session never record the same seq twice and every seq
 * follows one that exists. Implemented in db/.
 */
export interface GatewayCallJournal {
  record(
    executionId: string,
    entry: ToolCallEntry,
    answer: ChatMessage & { role: 'tool' },
    certificate: Certificate | null,
  ): Promise<GatewayCallRecording>;
}
