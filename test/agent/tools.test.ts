import { z } from 'zod';
import { runTool } from '../../core/agent/run-tool.js';
import { BUILT_IN_TOOLS } from '../../core/agent/tools/built-in-tools.js';
import { defineTool } from '../../core/agent/tools/tool.js';
import { sha256Hex } from '../../core/canonical-json.js';
import type { RepoReader } from '../../core/github/repo-reader.js';
import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { agentHarness, defaultPolicy, testExecution } from './support/agent-harness.js';
import { publicWeb } from '../../net/guarded-public-web.js';

const sha = 'a'.repeat(40);
const reader: RepoReader = {
  readFile: async (repo, ref, path) => (path === 'README.md' ? `# ${repo}@${ref}` : null),
  listChanges: async () => [{ filename: 'src/a.ts', status: 'modified', additions: 3, deletions: 1 }],
};

describe('repository tools', () => {
  it('read files and changes of the bound repository at its commit', async () => {
    const h = agentHarness(
      [
        toolTurn([
          call('c1', 'repo_read_file', { path: 'README.md' }),
          call('c2', 'repo_read_file', { path: 'missing.txt' }),
          call('c3', 'repo_list_changes'),
        ]),
        finalAnswer('ok'),
      ],
      { execution: { repo_root: 'acme/shop', commit_sha: sha }, deps: { repoReader: reader } },
    );
    await h.run();
    expect(h.stored().execution.tool_calls.map((c) => c.output)).toEqual([
      `# acme/shop@${sha}`,
      `No file missing.txt at ${sha}.`,
      '[{"filename":"src/a.ts","status":"modified","additions":3,"deletions":1}]',
    ]);
  });

  it('answer an error when the execution is bound to no repository', async () => {
    const h = agentHarness([toolTurn([call('c1', 'repo_list_changes')]), finalAnswer('ok')], { deps: { repoReader: reader } });
    await h.run();
    expect(h.stored().execution.tool_calls[0]).toMatchObject({
      verdict: 'allowed',
      output: expect.stringMatching(/^ERROR: this execution is not bound to a repository/),
    });
  });
});

describe('artifact tools', () => {
  it('store the review verdict and the release notes with their digests; read_upstream returns upstream artifacts', async () => {
    const upstream = [
      {
        execution_id: 'e-1',
        stage_id: 'review',
        artifacts: [{ kind: 'review' as const, name: 'review', content: 'LGTM', digest: sha256Hex('LGTM'), approved_for_release: true }],
      },
    ];
    const h = agentHarness(
      [
        toolTurn([
          call('c1', 'read_upstream'),
          call('c2', 'submit_review', { approved_for_release: false, summary: 'Needs tests.' }),
          call('c3', 'record_release_notes', { content: '## 1.4' }),
        ]),
        finalAnswer('ok'),
      ],
      { state: { upstreamArtifacts: upstream } },
    );
    await h.run();
    const { execution } = h.stored();
    expect(JSON.parse(execution.tool_calls[0].output!)).toEqual(upstream);
    expect(execution.artifacts).toEqual([
      { kind: 'review', name: 'review', content: 'Needs tests.', digest: sha256Hex('Needs tests.'), approved_for_release: false },
      { kind: 'release_notes', name: 'release-notes', content: '## 1.4', digest: sha256Hex('## 1.4') },
    ]);
    expect(h.provider.requests[0].system).toContain('LGTM');
  });
});

describe('runTool', () => {
  const ctx = { execution: testExecution(defaultPolicy()), upstreamArtifacts: [], httpAllowlist: [], web: publicWeb };

  it('answers a timeout as an error, aborting the tool', async () => {
    let aborted = false;
    const stuck = defineTool({
      name: 'stuck',
      description: 'never ends',
      capability: 'test:run',
      schema: z.strictObject({}),
      timeoutMs: 20,
      run: (_args, { signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
    });
    expect(await runTool(stuck, {}, ctx)).toEqual({ output: 'ERROR: stuck timed out after 20 ms' });
    expect(aborted).toBe(true);
  });

  it('answers a failure as an error without the secrets in its message', async () => {
    const failing = defineTool({
      name: 'failing',
      description: 'throws',
      capability: 'test:run',
      schema: z.strictObject({}),
      run: async () => {
        throw new Error(`auth failed for ghp_${'k'.repeat(36)}`);
      },
    });
    expect(await runTool(failing, {}, ctx)).toEqual({ output: 'ERROR: auth failed for [REDACTED]' });
  });
});

it('gives every built-in tool a JSON schema of an object for the model', () => {
  for (const tool of BUILT_IN_TOOLS) expect(z.toJSONSchema(tool.schema)).toMatchObject({ type: 'object', additionalProperties: false });
});
