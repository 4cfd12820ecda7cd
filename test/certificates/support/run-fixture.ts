import { generateKeyPairSync } from 'node:crypto';
import { sha256Hex } from '../../../core/canonical-json.js';
import { createCertifier } from '../../../core/certificates/create-certifier.js';
import { createSigner } from '../../../core/certificates/create-signer.js';
import { publicJwkOf } from '../../../core/certificates/public-jwk.js';
import { resourceUris, type ResourceUris } from '../../../core/certificates/resource-uris.js';
import { toolCallDigest } from '../../../core/certificates/tool-call-digest.js';
import type { Certificate, PublicJwk } from '../../../core/certificates/types.js';
import type { ToolCallEntry } from '../../../core/executions/execution.js';
import type { PolicyRef } from '../../../core/policies/policy.js';

export const policy: PolicyRef = { name: 'hipaa', version: 1, digest: 'cd'.repeat(32) };
export const permissions = ['repo:read', 'document:write:reports'];

/** How the run ended, as its execution certificate signs it: the verdict and the violations behind it. */
export interface RunOutcome {
  verdict: 'compliant' | 'non_compliant';
  violations: string[];
}

export const compliant: RunOutcome = { verdict: 'compliant', violations: [] };

export interface Run {
  executionId: string;
  toolCalls: ToolCallEntry[];
  certificates: Certificate[];
  jwk: PublicJwk;
}

function entry(seq: number, verdict: 'allowed' | 'denied'): ToolCallEntry {
  const output = verdict === 'allowed' ? `output ${seq}` : null;
  return {
    seq,
    call_id: `call_${seq}`,
    tool: verdict === 'allowed' ? 'repo_read_file' : 'http_get',
    arguments: verdict === 'allowed' ? { path: `src/${seq}.ts` } : { url: 'https://example.com' },
    capability: verdict === 'allowed' ? 'repo:read' : 'network:http:get',
    verdict,
    reason: verdict === 'allowed' ? null : 'capability_not_granted',
    certificate_id: null,
    result_digest: output ? sha256Hex(output) : null,
    output,
    duration_ms: 3,
    created_at: `2024-05-01T00:00:0${seq}.000Z`,
  };
}

/** A finished execution as the runtime records it: four tool calls (the third denied), certified and chained. */
export function certifiedRun(
  executionId = '11111111-1111-4111-8111-111111111111',
  upstream: { execution_id: string; digest: string }[] = [],
  uris: ResourceUris = resourceUris(),
  outcome: RunOutcome = compliant,
): Run {
  const privateKey = generateKeyPairSync('ed25519').privateKey;
  const certifier = createCertifier(createSigner(privateKey), uris);
  const toolCalls = [entry(1, 'allowed'), entry(2, 'allowed'), entry(3, 'denied'), entry(4, 'allowed')];
  const certificates: Certificate[] = [];
  for (const call of toolCalls) {
    if (call.verdict !== 'allowed') continue;
    const cert = certifier.certifyToolCall({
      executionId,
      seq: call.seq,
      tool: call.tool,
      arguments: call.arguments,
      capability: call.capability!,
      capabilities: permissions,
      verifiedProperties: ['capability_granted', 'arguments_valid'],
      policy,
      resultDigest: call.result_digest!,
      prev: certificates.at(-1)?.digest ?? null,
    });
    call.certificate_id = cert.id;
    certificates.push(cert);
  }
  certificates.push(
    certifier.certifyExecution({
      executionId,
      output: 'final answer',
      verdict: outcome.verdict,
      violations: outcome.violations,
      toolCallDigests: toolCalls.map(toolCallDigest),
      costCents: 42,
      policy,
      upstream,
      prev: certificates.at(-1)!.digest,
    }),
  );
  return { executionId, toolCalls, certificates, jwk: publicJwkOf(privateKey) };
}
