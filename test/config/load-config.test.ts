import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/load-config.js';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: path.resolve('.shipgate'),
      publicUrl: 'http://127.0.0.1:3000',
      registration: 'open',
      defaultRole: 'VIEWER',
      corsOrigins: [],
      httpAllowlist: [],
      rateLimitPerMinute: 600,
      mcp: { rateLimitPerMinute: 1200, maxSessions: 8 },
      signingKeyPem: undefined,
      secretKey: undefined,
      logLevel: 'info',
      providers: { defaultProvider: 'openai', defaultModel: 'gpt-4o-mini' },
    });
    expect(config.github.allowUnsignedWebhooks).toBe(false);
  });

  it('leaves GitHub Actions OIDC off until SHIPGATE_OIDC_OWNERS lists an owner', () => {
    expect(loadConfig({}).oidc).toEqual({ issuers: ['https://token.actions.githubusercontent.com'], audience: 'shipgate', owners: [] });
    expect(
      loadConfig({
        SHIPGATE_OIDC_ISSUERS: 'https://token.actions.githubusercontent.com/, https://ghe.example.com/_services/token',
        SHIPGATE_OIDC_AUDIENCE: 'https://shipgate.example.com',
        SHIPGATE_OIDC_OWNERS: 'Acme, octo-org',
      }).oidc,
    ).toEqual({
      issuers: ['https://token.actions.githubusercontent.com', 'https://ghe.example.com/_services/token'],
      audience: 'https://shipgate.example.com',
      owners: ['acme', 'octo-org'],
    });
    expect(configError({ SHIPGATE_OIDC_ISSUERS: 'not a url' })).toContain('SHIPGATE_OIDC_ISSUERS');
  });

  it('reads only the env it is given, and treats empty values as unset', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(loadConfig({}).port).toBe(3000);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
    expect(loadConfig({ PORT: '', DATABASE_URL: '', SHIPGATE_REGISTRATION: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      registration: 'open',
    });
  });

  it('derives values from the variables', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      SHIPGATE_PUBLIC_URL: 'https://gate.example.com/',
      SHIPGATE_DATA_DIR: '/var/lib/shipgate',
      SHIPGATE_CORS_ORIGINS: ' https://studio.example.com ,http://localhost:5173,',
      SHIPGATE_RATE_LIMIT_PER_MINUTE: '0',
      SHIPGATE_DEFAULT_PROVIDER: 'anthropic',
      SHIPGATE_REGISTRATION: 'closed',
      SHIPGATE_DEFAULT_ROLE: 'OPERATOR',
      SHIPGATE_HTTP_ALLOWLIST: 'Mirror.internal, 10.0.0.5:8080 ,',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'https://gate.example.com',
      dataDir: '/var/lib/shipgate',
      corsOrigins: ['https://studio.example.com', 'http://localhost:5173'],
      rateLimitPerMinute: 0,
      registration: 'closed',
      defaultRole: 'OPERATOR',
      httpAllowlist: ['mirror.internal', '10.0.0.5:8080'],
      providers: { defaultProvider: 'anthropic', defaultModel: 'claude-3-5-haiku-latest' },
    });
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'not a url'],
    ['SHIPGATE_REGISTRATION', 'maybe'],
    ['SHIPGATE_DEFAULT_ROLE', 'ROOT'],
    ['SHIPGATE_PUBLIC_URL', 'gate.example.com'],
    ['SHIPGATE_RATE_LIMIT_PER_MINUTE', '-5'],
    ['SHIPGATE_MCP_RATE_LIMIT_PER_MINUTE', '-1'],
    ['SHIPGATE_MCP_MAX_SESSIONS', '0'],
    ['SHIPGATE_MCP_MAX_SESSIONS', '1001'],
    ['SHIPGATE_DECISION_CACHE_COMMITS', '-1'],
    ['SHIPGATE_DECISION_CACHE_COMMITS', 'lots'],
    ['SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS', 'yes'],
    ['SHIPGATE_DEFAULT_PROVIDER', 'gemini'],
    ['GHE_PROTOCOL', 'ftp'],
    ['LOG_LEVEL', 'loud'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(configError({ [name]: value })).toMatch(new RegExp(`^Invalid configuration:\\n {2}${name}: `));
  });

  it('names every bad variable at once, without echoing values', () => {
    const message = configError({ PORT: 'abc', DATABASE_URL: 'postgres//admin:hunter2@db' });
    expect(message).toContain('PORT:');
    expect(message).toContain('DATABASE_URL:');
    expect(message).not.toContain('hunter2');
  });

  describe('NODE_ENV=production', () => {
    const signed = { NODE_ENV: 'production', SHIPGATE_SIGNING_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----' };

    it('requires SHIPGATE_SIGNING_KEY', () => {
      expect(configError({ NODE_ENV: 'production', WEBHOOK_SECRET: 's3cret' })).toContain(
        'SHIPGATE_SIGNING_KEY: required when NODE_ENV=production',
      );
    });

    it('starts without a webhook secret: the webhook refuses deliveries until one is known (WEBHOOK_SECRET or the registered App)', () => {
      expect(loadConfig(signed).github.webhookSecret).toBeUndefined();
      expect(loadConfig({ ...signed, WEBHOOK_SECRET: 's3cret' }).github.webhookSecret).toBe('s3cret');
      expect(loadConfig({ ...signed, SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS: 'true' }).github.allowUnsignedWebhooks).toBe(true);
      expect(loadConfig({ ...signed, SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS: 'false' }).github.allowUnsignedWebhooks).toBe(false);
    });

    it('asks for neither outside production', () => {
      expect(loadConfig({ NODE_ENV: 'test' }).signingKeyPem).toBeUndefined();
    });
  });
});
