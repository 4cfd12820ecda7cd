import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { ROLES } from '../core/accounts/roles.js';
import type { Config } from '../core/config.js';
import { withoutTrailingSlashes } from '../core/without-trailing-slashes.js';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const optional = z.string().min(1).optional();

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** An IP address, or one with a /prefix (a CIDR block) of the right length for its family. */
function isAddressOrBlock(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** Off ('' or 'false'), a hop count, or the proxies' addresses and CIDR blocks. */
function trustProxy(value: string): Config['trustProxy'] {
  if (value === 'false' || value === '0') return undefined;
  if (/^\d+$/.test(value)) return { hops: Number(value) };
  return { proxies: list(value) };
}

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  SHIPGATE_DATA_DIR: z.string().min(1).default('.shipgate'),
  SHIPGATE_SIGNING_KEY: optional,
  SHIPGATE_SECRET_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64 encoded (e.g. `openssl rand -base64 32`)')
    .optional(),
  SHIPGATE_REGISTRATION: z.enum(['open', 'closed']).default('open'),
  SHIPGATE_DEFAULT_ROLE: z.enum(ROLES).default('VIEWER'),
  SHIPGATE_PUBLIC_URL: z.string().url().optional(),
  SHIPGATE_CORS_ORIGINS: z.string().default(''),
  SHIPGATE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  SHIPGATE_MCP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
  SHIPGATE_MCP_MAX_SESSIONS: z.coerce.number().int().min(1).max(1000).default(8),
  SHIPGATE_TRUST_PROXY: z
    .string()
    .trim()
    .refine(
      (v) => v === 'false' || /^\d{1,2}$/.test(v) || list(v).every(isAddressOrBlock),
      'a hop count (e.g. 1), or a comma-separated list of proxy addresses and CIDR blocks (e.g. 10.0.0.0/8,::1)',
    )
    .optional(),
  SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS: bool.default(false),
  SHIPGATE_DELIVERY_RECOVERY_SECONDS: z.coerce.number().int().min(10).max(86400).default(300),
  APP_ID: optional,
  PRIVATE_KEY: optional,
  PRIVATE_KEY_PATH: optional,
  WEBHOOK_SECRET: optional,
  GHE_HOST: optional,
  GHE_PROTOCOL: z.enum(['http', 'https']).optional(),
  GITHUB_TOKEN: optional,
  GITHUB_CLIENT_ID: optional,
  GITHUB_CLIENT_SECRET: optional,
  SHIPGATE_GITHUB_ALLOWED_ORGS: z.string().default(''),
  SHIPGATE_REPO_ACCESS: z.enum(['roles', 'github', 'github-required']).optional(),
  OPENAI_API_KEY: optional,
  OPENAI_BASE_URL: z.string().url().optional(),
  ANTHROPIC_API_KEY: optional,
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  SHIPGATE_DEFAULT_PROVIDER: z.enum(['openai', 'anthropic']).default('openai'),
  SHIPGATE_DEFAULT_MODEL: optional,
  SHIPGATE_PRICES_FILE: optional,
  SHIPGATE_HTTP_ALLOWLIST: z.string().default(''),
  SHIPGATE_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  SHIPGATE_WORKER_HEARTBEAT_SECONDS: z.coerce.number().min(0.1).max(300).default(15),
  SHIPGATE_DECISION_CACHE_COMMITS: z.coerce.number().int().min(0).max(1_000_000).default(2000),
  SHIPGATE_PARSE_DEADLINE_SECONDS: z.coerce.number().min(0.01).max(3600).default(10),
  SHIPGATE_OIDC_ISSUERS: z
    .string()
    .refine(
      (v) => list(v).every((issuer) => URL.canParse(issuer) && /^https?:$/.test(new URL(issuer).protocol)),
      'a comma-separated list of issuer URLs',
    )
    .default('https://token.actions.githubusercontent.com'),
  SHIPGATE_OIDC_AUDIENCE: z.string().trim().min(1).default('shipgate'),
  SHIPGATE_OIDC_OWNERS: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

/** A configuration that cannot work; start-up stops with this message. */
export class ConfigError extends Error {}

/** Reads the configuration once from `env` (injectable, so tests never touch process.env). */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && !e.SHIPGATE_SIGNING_KEY) {
    throw new ConfigError('Invalid configuration:\n  SHIPGATE_SIGNING_KEY: required when NODE_ENV=production');
  }
  // Production starts without WEBHOOK_SECRET (the App may be registered from the studio later): the
  // webhook refuses deliveries (503) until a secret is known (server/github-app.ts, docs/github-app.md).
  const defaultModel =
    e.SHIPGATE_DEFAULT_MODEL ?? (e.SHIPGATE_DEFAULT_PROVIDER === 'anthropic' ? 'claude-3-5-haiku-latest' : 'gpt-4o-mini');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.SHIPGATE_DATA_DIR),
    publicUrl: (e.SHIPGATE_PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, ''),
    configuredPublicUrl: e.SHIPGATE_PUBLIC_URL?.replace(/\/$/, ''),
    registration: e.SHIPGATE_REGISTRATION,
    defaultRole: e.SHIPGATE_DEFAULT_ROLE,
    corsOrigins: e.SHIPGATE_CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    httpAllowlist: e.SHIPGATE_HTTP_ALLOWLIST.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    rateLimitPerMinute: e.SHIPGATE_RATE_LIMIT_PER_MINUTE,
    mcp: { rateLimitPerMinute: e.SHIPGATE_MCP_RATE_LIMIT_PER_MINUTE, maxSessions: e.SHIPGATE_MCP_MAX_SESSIONS },
    trustProxy: e.SHIPGATE_TRUST_PROXY === undefined ? undefined : trustProxy(e.SHIPGATE_TRUST_PROXY),
    signingKeyPem: e.SHIPGATE_SIGNING_KEY,
    secretKey: e.SHIPGATE_SECRET_KEY,
    logLevel: e.LOG_LEVEL,
    github: {
      appId: e.APP_ID,
      privateKey: e.PRIVATE_KEY,
      privateKeyPath: e.PRIVATE_KEY_PATH,
      webhookSecret: e.WEBHOOK_SECRET,
      gheHost: e.GHE_HOST,
      gheProtocol: e.GHE_PROTOCOL,
      token: e.GITHUB_TOKEN,
      clientId: e.GITHUB_CLIENT_ID,
      clientSecret: e.GITHUB_CLIENT_SECRET,
      allowedOrgs: list(e.SHIPGATE_GITHUB_ALLOWED_ORGS).map((org) => org.toLowerCase()),
      allowUnsignedWebhooks: e.SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS,
      deliveryRecoverySeconds: e.SHIPGATE_DELIVERY_RECOVERY_SECONDS,
    },
    providers: {
      defaultProvider: e.SHIPGATE_DEFAULT_PROVIDER,
      defaultModel,
      openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL },
      anthropic: { apiKey: e.ANTHROPIC_API_KEY, baseUrl: e.ANTHROPIC_BASE_URL },
      pricesFile: e.SHIPGATE_PRICES_FILE,
    },
    oidc: {
      issuers: list(e.SHIPGATE_OIDC_ISSUERS).map(withoutTrailingSlashes),
      audience: e.SHIPGATE_OIDC_AUDIENCE,
      owners: list(e.SHIPGATE_OIDC_OWNERS).map((owner) => owner.toLowerCase()),
    },
    worker: { concurrency: e.SHIPGATE_WORKER_CONCURRENCY, heartbeatSeconds: e.SHIPGATE_WORKER_HEARTBEAT_SECONDS },
    decisionCacheCommits: e.SHIPGATE_DECISION_CACHE_COMMITS,
    parseDeadlineSeconds: e.SHIPGATE_PARSE_DEADLINE_SECONDS,
    repoAccess: e.SHIPGATE_REPO_ACCESS,
  };
}
