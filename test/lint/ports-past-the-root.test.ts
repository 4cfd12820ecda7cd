import { ESLint } from 'eslint';

/**
 * Past the composition root (server/build-deps.ts) routes and jobs get storage only through the
 * ports it builds: the lint refuses a value of db/ (or the driver) in api/routers/, api/mcp/ and worker/,
 * shown on deliberate wrong imports linted as if they lived at the given path.
 */
const eslint = new ESLint({ cwd: process.cwd() });
const RULE = '@typescript-eslint/no-restricted-imports';

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const wrongImports: [string, string][] = [
  [
    'api/routers/wrong-store.ts',
    "import { createDeliveryLog } from '../../db/stores/github/postgres-delivery-log.js';\nexport const x = createDeliveryLog;\n",
  ],
  ['api/routers/wrong-sql.ts', "import { sendSql } from '../../db/send-sql.js';\nexport const x = sendSql;\n"],
  ['api/routers/wrong-knex.ts', "import knex from 'knex';\nexport const x = knex;\n"],
  [
    'api/mcp/wrong-store.ts',
    "import { createAgentSessionStore } from '../../db/stores/mcp/postgres-agent-session-store.js';\nexport const x = createAgentSessionStore;\n",
  ],
  [
    'worker/wrong-store.ts',
    "import { createRecoveryStore } from '../db/stores/github/postgres-recovery-store.js';\nexport const x = createRecoveryStore;\n",
  ],
  ['worker/wrong-queue.ts', "import { enqueue } from '../db/job-queue.js';\nexport const x = enqueue;\n"],
];

const rightImports: [string, string][] = [
  // Types of db/ carry no database handle: the job payloads, the worker's upkeep port.
  ['worker/right-types.ts', "import type { JobPayloads } from '../db/job-queue.js';\nexport type X = JobPayloads;\n"],
  [
    'api/routers/right-types.ts',
    "import type { ReleaseOverviewReads } from '../../db/stores/release/overview-reads.js';\nexport type X = ReleaseOverviewReads;\n",
  ],
  // The composition root and the API's own files outside routers/ are not routes.
  [
    'server/right-root.ts',
    "import { createDeliveryLog } from '../db/stores/github/postgres-delivery-log.js';\nexport const x = createDeliveryLog;\n",
  ],
];

describe('routes and jobs reach storage only through ports', () => {
  it.each(wrongImports)('the lint refuses the value import in %s', async (file, code) => {
    const messages = await refusals(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/server\/build-deps\.ts builds .*ARCHITECTURE\.md/);
  });

  it.each(rightImports)('the lint allows %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });

  it('the tree itself has none: every router and job file passes', async () => {
    const results = await eslint.lintFiles(['api/routers/**/*.ts', 'worker/**/*.ts']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}: ${m.message}`));
    expect(found).toEqual([]);
  });
});
