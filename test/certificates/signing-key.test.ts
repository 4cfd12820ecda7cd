import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/load-config.js';
import { loadSigningKey, SIGNING_KEY_FILE } from '../../server/load-signing-key.js';
import { createSigner } from '../../core/certificates/create-signer.js';
import { createVerifier } from '../../core/certificates/create-verifier.js';
import { IN_TOTO_STATEMENT_TYPE, type InTotoStatement } from '../../core/certificates/types.js';
import { createSigningKeyStore } from '../../db/stores/certificates/postgres-signing-key-store.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const statement: InTotoStatement = {
  _type: IN_TOTO_STATEMENT_TYPE,
  subject: [{ name: 's', digest: { sha256: '00'.repeat(32) } }],
  predicateType: 'https://example.com/t',
  predicate: {},
};

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.drop();
});

function tempDir(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-key-')), 'data');
}

function pem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
}

describe('loadSigningKey', () => {
  it('generates the key into the data dir with mode 0600 on first start and reuses it after', async () => {
    const dataDir = tempDir();
    const config = loadConfig({ SHIPGATE_DATA_DIR: dataDir });
    const store = createSigningKeyStore(database.db);
    const first = await loadSigningKey(config, store);
    const file = path.join(dataDir, SIGNING_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const contents = fs.readFileSync(file, 'utf8');
    expect(contents).toMatch(/-----BEGIN PRIVATE KEY-----/);

    const second = await loadSigningKey(config, store);
    expect(fs.readFileSync(file, 'utf8')).toBe(contents);
    expect(createSigner(second.privateKey).keyid).toBe(createSigner(first.privateKey).keyid);
    expect(second.publicKeys).toHaveLength(1);
    expect(second.publicKeys[0]).toMatchObject({ kid: createSigner(first.privateKey).keyid, status: 'current', retired_at: null });
  });

  it('uses SHIPGATE_SIGNING_KEY (escaped newlines too) and writes no file', async () => {
    const dataDir = tempDir();
    const key = pem();
    const loaded = await loadSigningKey(
      loadConfig({ SHIPGATE_DATA_DIR: dataDir, SHIPGATE_SIGNING_KEY: key.replace(/\n/g, '\\n') }),
      createSigningKeyStore(database.db),
    );
    expect(loaded.privateKey.export({ format: 'pem', type: 'pkcs8' })).toBe(key);
    expect(fs.existsSync(path.join(dataDir, SIGNING_KEY_FILE))).toBe(false);
  });

  it('refuses a key that is not an Ed25519 private key, naming the variable', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const store = createSigningKeyStore(database.db);
    await expect(loadSigningKey(loadConfig({ SHIPGATE_SIGNING_KEY: rsa }), store)).rejects.toThrow(
      /SHIPGATE_SIGNING_KEY: must be an Ed25519 private key/,
    );
    await expect(loadSigningKey(loadConfig({ SHIPGATE_SIGNING_KEY: 'garbage' }), store)).rejects.toThrow(
      /SHIPGATE_SIGNING_KEY: not a PEM private key/,
    );
  });

  it('keeps the previous key as retired when the key changes, so old certificates still verify', async () => {
    const store = createSigningKeyStore(database.db);
    const old = await loadSigningKey(loadConfig({ SHIPGATE_SIGNING_KEY: pem() }), store);
    const oldEnvelope = createSigner(old.privateKey).sign(statement);

    const current = await loadSigningKey(loadConfig({ SHIPGATE_SIGNING_KEY: pem() }), store);
    const oldKid = createSigner(old.privateKey).keyid;
    const newKid = createSigner(current.privateKey).keyid;
    expect(current.publicKeys.map((k) => [k.kid, k.status])).toEqual([
      [newKid, 'current'],
      [oldKid, 'retired'],
    ]);
    expect(current.publicKeys[1].retired_at).toEqual(expect.any(String));
    expect(await store.list()).toEqual(current.publicKeys);

    const verifier = createVerifier(current.publicKeys);
    expect(verifier.verify(oldEnvelope).verified).toBe(true);
    expect(verifier.verify(createSigner(current.privateKey).sign(statement)).verified).toBe(true);
  });

  it('agrees on one current key when replicas start together', async () => {
    const store = createSigningKeyStore(database.db);
    const config = loadConfig({ SHIPGATE_SIGNING_KEY: pem() });
    await Promise.all([loadSigningKey(config, store), loadSigningKey(config, store), loadSigningKey(config, store)]);
    expect((await store.list()).filter((k) => k.status === 'current')).toHaveLength(1);
  });
});
