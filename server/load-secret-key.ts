import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config.js';
import { ConfigError } from './load-config.js';

/**
 * The 32-byte key that encrypts stored provider key overrides: SHIPGATE_SECRET_KEY (base64),
 * else `<dataDir>/secret-key`, generated (mode 0600) on first use. Every API replica and worker
 * must share it, which is why a multi-machine deployment sets SHIPGATE_SECRET_KEY.
 */
export function loadSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): Buffer {
  if (config.secretKey) return decode(config.secretKey, 'SHIPGATE_SECRET_KEY');
  const file = path.join(config.dataDir, 'secret-key');
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    // Written aside then linked into place: a concurrent starter either wins or reads a whole key.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  return decode(fs.readFileSync(file, 'utf8').trim(), file);
}

function decode(value: string, source: string): Buffer {
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32 || key.toString('base64') !== value.replace(/\s/g, '')) {
    throw new ConfigError(`Invalid configuration:\n  ${source}: must be 32 bytes, base64 encoded (e.g. \`openssl rand -base64 32\`)`);
  }
  return key;
}
