import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths that may hold secrets anywhere in a log object; pino blanks them. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'api_key',
  '*.api_key',
  'apiKey',
  '*.apiKey',
  'key',
  '*.key',
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'password_hash',
  '*.password_hash',
  'passwordHash',
  '*.passwordHash',
  'key_hash',
  '*.key_hash',
  'keyHash',
  '*.keyHash',
  'api_key_override',
  '*.api_key_override',
  'secret',
  '*.secret',
  'token',
  '*.token',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'shipgate' } }, destination);
}
