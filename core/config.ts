import type { Role } from './accounts/roles.js';

/**
 * The service's settings as plain data. `server/load-config.ts` reads them once from the environment;
 * every other folder receives them (or the part it needs) from the composition root.
 */
export interface Config {
  env: string;
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  publicUrl: string;
  /**
   * SHIPGATE_PUBLIC_URL as configured, without a trailing slash; unset when `publicUrl` is only the
   * listen address. Attestations name resources by URL only under it (docs/attestations.md, "URIs").
   */
  configuredPublicUrl?: string;
  registration: 'open' | 'closed';
  defaultRole: Role;
  corsOrigins: string[];
  /** Hosts the http_get tool may reach even when they resolve to private addresses. */
  httpAllowlist: string[];
  rateLimitPerMinute: number;
  /**
   * The MCP endpoint's limits (docs/mcp-gateway.md, "Limits"): requests per minute per session token
   * or agent key (0: none), and MCP sessions open at once per agent key and per agent session.
   */
  mcp: { rateLimitPerMinute: number; maxSessions: number };
  /**
   * Whose X-Forwarded-For to believe for the client address (rate limits, login throttle, logs):
   * the number of proxies in front of the service, or their addresses and CIDR blocks. Unset: nobody's.
   */
  trustProxy?: { hops: number } | { proxies: string[] };
  signingKeyPem?: string;
  secretKey?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  github: {
    appId?: string;
    privateKey?: string;
    privateKeyPath?: string;
    webhookSecret?: string;
    gheHost?: string;
    gheProtocol?: 'http' | 'https';
    token?: string;
    /** The App's OAuth client (sign in with GitHub) when its credentials come from the environment. */
    clientId?: string;
    clientSecret?: string;
    /** Organisations (lower case) whose members may sign in with GitHub; empty: any GitHub user. */
    allowedOrgs: string[];
    allowUnsignedWebhooks: boolean;
    /** Missed-delivery recovery runs this often (with App credentials only). */
    deliveryRecoverySeconds: number;
  };
  providers: {
    defaultProvider: 'openai' | 'anthropic';
    defaultModel: string;
    openai: { apiKey?: string; baseUrl?: string };
    anthropic: { apiKey?: string; baseUrl?: string };
    pricesFile?: string;
  };
  /**
   * Keyless callers: GitHub Actions OIDC tokens from `issuers` for `audience`, accepted only for
   * repositories of `owners` (empty: OIDC off).
   */
  oidc: { issuers: string[]; audience: string; owners: string[] };
  /** Jobs run at once per worker process; heartbeat period (a worker silent for 4 periods is presumed dead). */
  worker: { concurrency: number; heartbeatSeconds: number };
  /** Commits whose release state a server keeps for the decision (about 5 KB each; 0: none, every decision reads it). */
  decisionCacheCommits: number;
  /**
   * How long one evidence document's parse may run in its worker thread, from the moment the thread starts it (time
   * queued for a thread does not count); past it the upload is refused and nothing is stored (docs/operations.md, "Security").
   */
  parseDeadlineSeconds: number;
  /**
   * Who may act on a repository (docs/api.md, "Repository access"): `roles` the shipgate role alone,
   * `github` also the linked GitHub account's permission there, `github-required` that and a linked
   * account. Unset: `github` while a GitHub App is configured, else `roles`.
   */
  repoAccess?: 'roles' | 'github' | 'github-required';
}
