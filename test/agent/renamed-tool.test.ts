import { generateKeyPairSync } from 'node:crypto';
import { BUILT_IN_TOOLS } from '../../core/agent/tools/built-in-tools.js';
import { toolsByName } from '../../core/agent/tools/tools-by-name.js';
import { sha256Hex } from '../../core/canonical-json.js';
import { certifiedClaims } from '../../core/certificates/certified-claims.js';
import { createCertifier } from '../../core/certificates/create-certifier.js';
import { createSigner } from '../../core/certificates/create-signer.js';
import { createVerifier } from '../../core/certificates/create-verifier.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import type { Certificate, InTotoStatement } from '../../core/certificates/types.js';
import { verifyCertificateChain } from '../../core/certificates/verify-certificate-chain.js';
import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { agentHarness } from './support/agent-harness.js';

/**
 * `publish_release_notes` published nothing, so it is `record_release_notes` now; the old name is
 * still answered (docs/workflows.md, "Governed agent executions": tools).
 */
const NOTES = '## 1.4\n\nFaster checkout.';
const RELEASE_NOTES = { kind: 'release_notes', name: 'release-notes', content: NOTES, digest: sha256Hex(NOTES) };

function certifiedTool(certificate: Certificate): unknown {
  const statement = JSON.parse(Buffer.from(certificate.envelope.payload, 'base64').toString('utf8')) as InTotoStatement;
  return certifiedClaims(statement.predicateType, statement.predicate ?? {}).tool;
}

/** A run whose model calls `name` once, with a certifier whose public key the test holds. */
function releaseRun(name: string, permissions?: string[]) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const harness = agentHarness([toolTurn([call('c1', name, { content: NOTES })]), finalAnswer('Notes recorded.')], {
    execution: permissions ? { permissions } : {},
    deps: { certifier: createCertifier(createSigner(privateKey)) },
  });
  return { harness, verifier: createVerifier([publicJwkOf(publicKey)]) };
}

describe('record_release_notes (formerly publish_release_notes)', () => {
  it('is offered to the model under its new name only', async () => {
    const { harness } = releaseRun('record_release_notes');
    await harness.run();
    const offered = harness.provider.requests[0].tools.map((tool) => tool.name);
    expect(offered).toContain('record_release_notes');
    expect(offered).not.toContain('publish_release_notes');
    expect(harness.provider.requests[0].tools.find((tool) => tool.name === 'record_release_notes')!.description).toMatch(
      /^Record the release notes/,
    );
  });

  it('records the release notes as the execution artifact when called by its name', async () => {
    const { harness } = releaseRun('record_release_notes');
    await harness.run();
    const { execution } = harness.stored();
    expect(execution.tool_calls).toMatchObject([{ tool: 'record_release_notes', capability: 'release:write', verdict: 'allowed' }]);
    expect(execution.artifacts).toEqual([RELEASE_NOTES]);
  });

  it('answers a call by the old name as the same tool: recorded and certified under the new name, the transcript keeps what the model said', async () => {
    const { harness, verifier } = releaseRun('publish_release_notes');
    await harness.run();
    const { execution, transcript } = harness.stored();
    expect(execution.tool_calls).toMatchObject([{ tool: 'record_release_notes', capability: 'release:write', verdict: 'allowed' }]);
    expect(execution.artifacts).toEqual([RELEASE_NOTES]);
    const [toolCallCertificate] = execution.certificates.filter((c) => c.kind === 'tool_call');
    expect(certifiedTool(toolCallCertificate)).toBe('record_release_notes');
    expect(verifyCertificateChain(execution.certificates, verifier, execution.tool_calls).every((check) => check.verified)).toBe(true);
    const turn = transcript.find((message) => message.role === 'assistant' && message.tool_calls.length > 0);
    expect(turn).toMatchObject({ tool_calls: [{ name: 'publish_release_notes' }] });
    expect(harness.logs.find((line) => line.event === 'agent.tool_call')!.fields).toMatchObject({
      tool: 'record_release_notes',
      called_as: 'publish_release_notes',
    });
  });

  it('governs a call by the old name as the tool it names: without release:write it is denied for that, not as unknown', async () => {
    const { harness } = releaseRun('publish_release_notes', ['document:write:reports']);
    await harness.run();
    expect(harness.stored().execution.tool_calls).toMatchObject([
      { tool: 'record_release_notes', capability: 'release:write', verdict: 'denied', reason: 'capability_not_granted' },
    ]);
    expect(harness.stored().execution.artifacts).toEqual([]);
  });
});

describe('toolsByName', () => {
  it('finds each built-in tool by its name and its aliases', () => {
    const byName = toolsByName(BUILT_IN_TOOLS);
    expect(byName.get('publish_release_notes')).toBe(byName.get('record_release_notes'));
    expect(byName.get('record_release_notes')!.name).toBe('record_release_notes');
  });

  it('refuses two tools answering to one name', () => {
    const notes = BUILT_IN_TOOLS.find((tool) => tool.name === 'record_release_notes')!;
    expect(() => toolsByName([...BUILT_IN_TOOLS, { ...notes, name: 'publish_release_notes', aliases: [] }])).toThrow(
      'Tools record_release_notes and publish_release_notes both answer to "publish_release_notes".',
    );
  });
});
