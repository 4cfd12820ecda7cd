import { ESLint } from 'eslint';

/**
 * One way to send hand-written SQL (ARCHITECTURE.md, "Sending SQL"): the lint config refuses the
 * other ways in runtime code, shown on deliberate wrong snippets linted as if they lived there.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function sqlPathMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const header = "import type { Knex } from 'knex';\n";

const wrongWays: [string, string, string][] = [
  ['a knex raw statement', 'db/stores/wrong.ts', `${header}export async function f(db: Knex) {\n  await db.raw('SELECT 1');\n}\n`],
  [
    'a named raw statement',
    'db/stores/wrong.ts',
    `${header}export function f(db: Knex) {\n  return db.raw('SELECT 1').options({ name: 'x' });\n}\n`,
  ],
  [
    'a connection taken from the pool',
    'db/wrong.ts',
    `${header}export async function f(db: Knex) {\n  return db.client.acquireConnection();\n}\n`,
  ],
  [
    'a store translating driver errors itself',
    'db/stores/wrong.ts',
    "import { translateDriverError } from '../translate-driver-error.js';\nexport const x = translateDriverError;\n",
  ],
  [
    'an api route sending raw SQL',
    'api/routers/wrong.ts',
    `${header}export async function f(db: Knex) {\n  await db.raw('SELECT 1');\n}\n`,
  ],
];

const rightWays: [string, string, string][] = [
  [
    'sendSql',
    'db/stores/right.ts',
    `${header}import { sendSql } from '../send-sql.js';\nexport async function f(db: Knex) {\n  await sendSql(db, 'SELECT $1::int', [1]);\n}\n`,
  ],
  [
    'a raw fragment inside a builder query',
    'db/stores/right.ts',
    `${header}export function f(db: Knex) {\n  return db('users').where('created_at', '<', db.raw('now()'));\n}\n`,
  ],
  ['DDL in a migration', 'db/migrations/999-right.ts', `${header}export async function up(db: Knex) {\n  await db.raw('SELECT 1');\n}\n`],
];

describe('one way to send hand-written SQL', () => {
  it.each(wrongWays)('refuses %s', async (_name, file, code) => {
    const messages = await sqlPathMessages(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/ARCHITECTURE\.md/);
  });

  it.each(rightWays)('allows %s', async (_name, file, code) => {
    expect(await sqlPathMessages(file, code)).toEqual([]);
  });
});
