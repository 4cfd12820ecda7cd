import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/load-config.js';
import { loadSecretKey } from '../../server/load-secret-key.js';
import { openSecret, sealSecret } from '../../core/executions/seal-secret.js';

describe('the secret key', () => {
  it('is generated once into the data dir with mode 0600, then reused', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-secret-'));
    try {
      const first = loadSecretKey({ dataDir });
      expect(first).toHaveLength(32);
      expect(fs.statSync(path.join(dataDir, 'secret-key')).mode & 0o777).toBe(0o600);
      expect(loadSecretKey({ dataDir }).equals(first)).toBe(true);
      expect(fs.readdirSync(dataDir)).toEqual(['secret-key']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('comes from SHIPGATE_SECRET_KEY when set, and a malformed one stops the start naming it', () => {
    const key = randomBytes(32);
    expect(loadSecretKey({ secretKey: key.toString('base64'), dataDir: '/nonexistent' }).equals(key)).toBe(true);
    expect(() => loadConfig({ SHIPGATE_SECRET_KEY: randomBytes(16).toString('base64') })).toThrow(ConfigError);
    expect(() => loadConfig({ SHIPGATE_SECRET_KEY: randomBytes(16).toString('base64') })).toThrow(/SHIPGATE_SECRET_KEY/);
  });
});

describe('sealSecret', () => {
  const key = randomBytes(32);

  it('round-trips, never contains the plaintext, and differs every time', () => {
    const sealed = sealSecret(key, 'sk-live-abcdef123456', 'execution-1');
    expect(sealed).not.toContain('sk-live');
    expect(sealSecret(key, 'sk-live-abcdef123456', 'execution-1')).not.toBe(sealed);
    expect(openSecret(key, sealed, 'execution-1')).toBe('sk-live-abcdef123456');
  });

  it("refuses another key, another execution's context, or any changed byte", () => {
    const sealed = sealSecret(key, 'sk-live-abcdef123456', 'execution-1');
    expect(() => openSecret(randomBytes(32), sealed, 'execution-1')).toThrow();
    expect(() => openSecret(key, sealed, 'execution-2')).toThrow();
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[3], 'base64url');
    ciphertext[0] ^= 1;
    expect(() => openSecret(key, [...parts.slice(0, 3), ciphertext.toString('base64url')].join('.'), 'execution-1')).toThrow();
  });
});
