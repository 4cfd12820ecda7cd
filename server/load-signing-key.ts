import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { publicJwkOf } from '../core/certificates/public-jwk.js';
import type { SigningKeyStore } from '../core/certificates/signing-key-store.js';
import type { PublicJwk } from '../core/certificates/types.js';
import type { Config } from '../core/config.js';
import { ConfigError } from './load-config.js';

/** The private key certificates are signed with, and every public key they may verify under. */
export interface SigningKeys {
  privateKey: KeyObject;
  /** Current and retired keys; certificates signed before a key change still verify. */
  publicKeys: PublicJwk[];
}

export const SIGNING_KEY_FILE = 'signing-key.pem';

function parsePem(pem: string, source: string): KeyObject {
  let key: KeyObject;
  try {
    // Environment variables often carry PEMs with escaped newlines.
    key = createPrivateKey(pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem);
  } catch {
    throw new ConfigError(`Invalid configuration:\n  ${source}: not a PEM private key`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new ConfigError(`Invalid configuration:\n  ${source}: must be an Ed25519 private key (found ${key.asymmetricKeyType})`);
  return key;
}

/** Reads `<dataDir>/signing-key.pem`, generating it (mode 0600) on first start. */
async function keyFromDataDir(dataDir: string): Promise<KeyObject> {
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  try {
    return parsePem(await fs.readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  try {
    // 'wx' fails if the file exists, so two processes starting together keep one key.
    await fs.writeFile(file, pem, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parsePem(await fs.readFile(file, 'utf8'), file);
}

/**
 * The signing key, from SHIPGATE_SIGNING_KEY or the data dir (or, for tests, generated in
 * memory), registered as the current key so the previous one is kept as retired.
 */
export async function loadSigningKey(
  config: Config,
  store: SigningKeyStore,
  { withoutConfiguredKey = 'file' }: { withoutConfiguredKey?: 'file' | 'ephemeral' } = {},
): Promise<SigningKeys> {
  const privateKey = config.signingKeyPem
    ? parsePem(config.signingKeyPem, 'SHIPGATE_SIGNING_KEY')
    : withoutConfiguredKey === 'file'
      ? await keyFromDataDir(config.dataDir)
      : generateKeyPairSync('ed25519').privateKey;
  const publicKeys = await store.makeCurrent(publicJwkOf(privateKey));
  return { privateKey, publicKeys };
}

/** An in-memory key nobody else knows, for code paths that build deps without loading one. */
export function ephemeralSigningKeys(): SigningKeys {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKeys: [publicJwkOf(privateKey)] };
}
