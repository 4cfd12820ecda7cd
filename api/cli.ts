import { loadConfig, ConfigError, type Config } from './config.js';
import { createLogger } from './create-logger.js';
import { openDatabase } from './open-database.js';
import { serve } from './serve.js';

const USAGE = `Usage: shipgate <command>

  serve            the API, webhook and worker in one process (default)
  migrate          apply database migrations and exit
`;

function banner(url: string, config: Config): string {
  return [
    '',
    `  shipgate is running at ${url}`,
    `  API docs:      ${url}/docs   (OpenAPI: ${url}/openapi.json)`,
    `  Database:      ${config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`}`,
    '',
    '  Register the first user (who becomes ADMIN):',
    `    curl -s -X POST ${url}/api/v1/auth/register -H 'Content-Type: application/json' \\`,
    `      -d '{"email":"you@example.com","name":"You","password":"a-long-password"}'`,
    '',
  ].join('\n');
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  if (command === 'migrate') {
    const database = await openDatabase(config, logger);
    await database.close();
    logger.info('migrations applied');
    return;
  }
  if (command !== 'serve') {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const service = await serve(config, logger);
  process.stdout.write(`${banner(service.url, config)}\n`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await service.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `shipgate failed to start: ${(error as Error).stack ?? error}`}\n`);
  process.exit(1);
});
