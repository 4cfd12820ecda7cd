import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import { EmbeddedPostgresError } from '../db/postgres-user.js';
import { loadConfig, ConfigError } from './load-config.js';
import { createLogger } from './create-logger.js';
import { routeConsoleToLogger } from './route-console.js';
import { VERIFY_USAGE, verifyCommand } from './verify-command.js';
import { HOOK_USAGE } from '../bin/hook-command.js';
import { tolerateConnectionErrorsWhileStopping } from './tolerate-connection-errors-while-stopping.js';

/** One CLI command: resolves to the process exit code. */
// Commands import their heavy modules lazily: `verify` runs offline and needs none of the server.
interface Command {
  usage: string;
  summary: string;
  run(args: string[]): Promise<number>;
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

function configured(): { config: Config; logger: Logger } {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  routeConsoleToLogger(logger);
  return { config, logger };
}

/**
 * Resolves on the first stop signal. Handlers that libraries installed for these signals are
 * removed first: one that exits at once would cut off in-flight requests; shipgate drains,
 * then stops the embedded PostgreSQL itself.
 */
function untilSignalled(logger: Logger): Promise<string> {
  return new Promise((resolve) => {
    for (const signal of SIGNALS) {
      process.removeAllListeners(signal);
      process.on(signal, () => {
        logger.info({ signal }, 'shutting down');
        resolve(signal);
      });
    }
  });
}

function banner(url: string, database: string[]): string {
  return [
    '',
    `  shipgate is running at ${url}`,
    `  Studio:        ${url}/studio   (sign in, or create the first account, who becomes ADMIN)`,
    `  API docs:      ${url}/docs   (OpenAPI: ${url}/openapi.json)`,
    `  Database:      ${database[0]}`,
    ...database.slice(1).map((note) => `                 ${note}`),
    '',
    '  Register the first user (who becomes ADMIN):',
    `    curl -s -X POST ${url}/api/v1/auth/register -H 'Content-Type: application/json' \\`,
    `      -d '{"email":"you@example.com","name":"You","password":"a-long-password"}'`,
    '',
  ].join('\n');
}

const commands: Record<string, Command> = {
  serve: {
    usage: 'serve [--no-worker]',
    summary: 'migrate, then serve the API and run queued jobs until SIGTERM/SIGINT (the default command)',
    async run(args) {
      const { config, logger } = configured();
      // Imported before untilSignalled, so any signal handler a library installs on load is removed.
      const { serve } = await import('./serve.js');
      const signalled = untilSignalled(logger);
      const service = await serve(config, logger, { worker: !args.includes('--no-worker') });
      process.stdout.write(`${banner(service.url, service.database)}\n`);
      await signalled;
      tolerateConnectionErrorsWhileStopping(logger);
      await service.stop();
      return 0;
    },
  },
  worker: {
    usage: 'worker',
    summary: 'migrate, then run queued jobs (agent executions) until SIGTERM/SIGINT; scales apart from serve --no-worker',
    async run() {
      const { config, logger } = configured();
      const { serveWorker } = await import('./serve.js');
      const signalled = untilSignalled(logger);
      const worker = await serveWorker(config, logger);
      await signalled;
      tolerateConnectionErrorsWhileStopping(logger);
      await worker.stop();
      return 0;
    },
  },
  migrate: {
    usage: 'migrate',
    summary: 'apply database migrations and exit',
    async run() {
      const { config, logger } = configured();
      const database = await (await import('./open-database.js')).openDatabase(config, logger);
      await database.close();
      logger.info('migrations applied');
      return 0;
    },
  },
  verify: {
    usage: VERIFY_USAGE,
    summary:
      'check an audit package offline with only public keys: exit 0 verified under --keys/--keyid, 1 failed (each failure named), 3 intact but origin unproven (no --keys/--keyid); `verify --help`',
    run: (args) => verifyCommand(args),
  },
  hook: {
    usage: HOOK_USAGE,
    summary:
      "a coding agent's command hook: forwards the hook input on stdin to $SHIPGATE_URL with $SHIPGATE_TOKEN, prints the answer; exit 0 allowed, 2 denied or no verdict (fails closed)",
    // bin/shipgate.js runs it before loading tsx; listed here for help.
    run: async (args) => (await import('../bin/hook-command.js')).hookCommand(args),
  },
  help: {
    usage: 'help',
    summary: 'show this help',
    async run() {
      process.stdout.write(usage());
      return 0;
    },
  },
};

function usage(): string {
  const width = Math.max(...Object.values(commands).map((c) => c.usage.length)) + 2;
  const lines = Object.values(commands).map((c) => `  ${c.usage.padEnd(width)}${c.summary}`);
  return `Usage: shipgate <command>\n\n${lines.join('\n')}\n\nConfiguration comes from environment variables; see README.md.\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name = 'serve', ...args] = argv;
  const key = name === '--help' || name === '-h' ? 'help' : name;
  const command = Object.hasOwn(commands, key) ? commands[key] : undefined;
  if (!command) {
    process.stderr.write(`Unknown command: ${name}\n\n${usage()}`);
    return 2;
  }
  return command.run(args);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError || error instanceof EmbeddedPostgresError ? error.message : `shipgate failed: ${(error as Error).stack ?? error}`}\n`,
    );
    process.exit(1);
  },
);
