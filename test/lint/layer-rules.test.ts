import { ESLint } from 'eslint';

/**
 * The layer rule of ARCHITECTURE.md, shown on deliberate wrong arrows: each snippet is linted as
 * if it lived at the given path, with the project's own eslint.config.js.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const wrongArrows: [string, string][] = [
  ['db/stores/wrong.ts', "import { createServer } from '../../api/create-server.js';\nexport const x = createServer;\n"],
  ['core/agent/wrong.ts', "import https from 'node:https';\nexport const x = https;\n"],
  ['core/release/wrong.ts', "import { lookup } from 'node:dns/promises';\nexport const x = lookup;\n"],
  ['core/release/wrong-knex.ts', "import knex from 'knex';\nexport const x = knex;\n"],
  ['core/mcp/wrong.ts', "import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nexport const x = Server;\n"],
  ['api/routers/wrong.ts', "import { startWorker } from '../../worker/start-worker.js';\nexport const x = startWorker;\n"],
  ['api/wrong.ts', "import { loadConfig } from '../server/load-config.js';\nexport const x = loadConfig;\n"],
  ['app/wrong.ts', "import { createKnex } from '../db/create-knex.js';\nexport const x = createKnex;\n"],
  ['llm/wrong.ts', "import { createKnex } from '../db/create-knex.js';\nexport const x = createKnex;\n"],
  ['worker/wrong.ts', "import { createServer } from '../api/create-server.js';\nexport const x = createServer;\n"],
  ['action/src/wrong.ts', "import { canonicalJson } from '../../core/canonical-json.js';\nexport const x = canonicalJson;\n"],
];

const rightArrows: [string, string][] = [
  ['db/stores/right.ts', "import { canonicalJson } from '../../core/canonical-json.js';\nexport const x = canonicalJson;\n"],
  ['api/right.ts', "import { createKnex } from '../db/create-knex.js';\nexport const x = createKnex;\n"],
  [
    'api/mcp/right.ts',
    "import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';\nexport const x = StreamableHTTPServerTransport;\n",
  ],
  [
    'worker/right.ts',
    "import { createProviderFactory } from '../llm/create-provider-factory.js';\nexport const x = createProviderFactory;\n",
  ],
  [
    'server/right.ts',
    "import { createServer } from '../api/create-server.js';\nimport { startWorker } from '../worker/start-worker.js';\nexport const x = [createServer, startWorker];\n",
  ],
];

describe('the layer rule in the lint config', () => {
  it.each(wrongArrows)('refuses the wrong import in %s', async (file, code) => {
    const messages = await restrictedImports(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/ARCHITECTURE\.md/);
  });

  it.each(rightArrows)('allows the permitted import in %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});
