import { generateKeyPairSync } from 'node:crypto';
import type { ChatMessage } from '../../../core/agent/provider.js';
import { canonicalDigest } from '../../../core/canonical-json.js';
import { createCertifier } from '../../../core/certificates/create-certifier.js';
import { createSigner } from '../../../core/certificates/create-signer.js';
import type { Certificate } from '../../../core/certificates/types.js';
import type { Artifact, ToolCallEntry } from '../../../core/executions/execution.js';
import type { Policy } from '../../../core/policies/policy.js';

export type Step = [ToolCallEntry, ChatMessage & { role: 'tool' }, Certificate | null, Artifact | null];

const certifier = createCertifier(createSigner(generateKeyPairSync('ed25519').privateKey));

/** The pieces of one allowed write_report call, as the runtime passes them to the journal (`text` tells attempts apart). */
export function reportStep(id: string, policy: Policy, seq: number, text: string): Step {
  const entry: ToolCallEntry = {
    seq,
    call_id: `c${seq}`,
    tool: 'write_report',
    arguments: { name: `c${seq}`, content: text },
    capability: 'document:write:reports',
    verdict: 'allowed',
    reason: null,
    certificate_id: null,
    result_digest: canonicalDigest(text),
    output: text,
    duration_ms: 1,
    created_at: new Date().toISOString(),
  };
  const certificate = certifier.certifyToolCall({
    executionId: id,
    seq,
    tool: entry.tool,
    arguments: entry.arguments,
    capability: entry.capability!,
    capabilities: ['*'],
    verifiedProperties: ['capability_granted'],
    policy: { name: policy.name, version: policy.version, digest: canonicalDigest(policy) },
    resultDigest: entry.result_digest!,
    prev: null,
  });
  const artifact: Artifact = { kind: 'report', name: `c${seq}`, content: text, digest: canonicalDigest(text) };
  return [{ ...entry, certificate_id: certificate.id }, { role: 'tool', tool_call_id: `c${seq}`, content: text }, certificate, artifact];
}
