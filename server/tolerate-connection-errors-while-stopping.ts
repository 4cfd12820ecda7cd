import type { Logger } from 'pino';

/** What a database client says when the server it was connected to goes away under it. */
const CONNECTION_LOST = /connection|terminat|ECONNREFUSED|ECONNRESET|EPIPE|shutting down/i;

/**
 * Once shipgate is stopping (a signal was received), a database client that a library still holds
 * (graphile-worker's, reconnecting its LISTEN connection while the embedded PostgreSQL stops) may
 * throw "connection terminated" with no listener left: that would exit 1 a stop that otherwise
 * completed. Such an error is logged and the stop goes on; any other error still ends the process
 * with code 1, as before the signal (docs/operations.md, "Processes and signals").
 */
export function tolerateConnectionErrorsWhileStopping(logger: Logger): void {
  process.on('uncaughtException', (error: Error & { code?: string }) => {
    if (CONNECTION_LOST.test(`${error?.message} ${error?.code ?? ''}`)) {
      logger.warn({ err: { message: error.message, code: error.code } }, 'a database connection failed while stopping; ignored');
      return;
    }
    process.stderr.write(`shipgate failed while stopping: ${error?.stack ?? error}\n`);
    process.exit(1);
  });
}
