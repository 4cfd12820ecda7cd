import type { Knex } from 'knex';
import type { GitHubAppCredentials } from '../../../core/github/app-credentials.js';
import type { AppRegistrationStore } from '../../../core/github/app-registration.js';
import { openSecret, sealSecret } from '../../../core/executions/seal-secret.js';
import { UnavailableError } from '../../../core/errors.js';
import type { GitHubAppManifestStateRow, GitHubAppRegistrationRow } from '../../tables.js';
import { createRecoveryStore } from './postgres-recovery-store.js';

/** Each secret is sealed with its App and its field as context, so a ciphertext moved to another column or row will not open. */
const context = (appId: string, field: 'client_secret' | 'webhook_secret' | 'private_key') => `github_app:${appId}:${field}`;

/**
 * The studio's App registration in PostgreSQL (migration 031); secrets sealed with `secretKey`
 * (SHIPGATE_SECRET_KEY). Storing an App also queues missed-delivery recovery, `recoverySeconds`
 * later (a worker's start queues it only for an App from the environment).
 */
export function createAppRegistrationStore(db: Knex, secretKey: Buffer, recoverySeconds = 300): AppRegistrationStore {
  const registrations = () => db<GitHubAppRegistrationRow>('github_app_registrations');
  const states = () => db<GitHubAppManifestStateRow>('github_app_manifest_states');
  return {
    async createState(stateSha256, organization, createdBy, expiresAt) {
      await states().where('expires_at', '<', db.fn.now()).delete();
      await states().insert({ state_sha256: stateSha256, organization, created_by: createdBy, expires_at: expiresAt });
    },
    async takeState(stateSha256) {
      const [taken] = await states().where({ state_sha256: stateSha256 }).delete().returning(['expires_at', 'created_by']);
      return taken !== undefined && taken.expires_at.getTime() > Date.now() ? { createdBy: taken.created_by } : null;
    },
    async save(app, registeredBy) {
      const inserted = await registrations()
        .insert({
          id: 1,
          app_id: app.appId,
          slug: app.slug,
          owner_login: app.ownerLogin,
          html_url: app.htmlUrl,
          client_id: app.clientId,
          client_secret_ciphertext: sealSecret(secretKey, app.clientSecret, context(app.appId, 'client_secret')),
          webhook_secret_ciphertext: sealSecret(secretKey, app.webhookSecret, context(app.appId, 'webhook_secret')),
          private_key_ciphertext: sealSecret(secretKey, app.privateKey, context(app.appId, 'private_key')),
          registered_by: registeredBy,
        })
        .onConflict('id')
        .ignore()
        .returning('id');
      if (inserted.length === 0) return false;
      await createRecoveryStore(db).ensureScheduled(new Date(Date.now() + recoverySeconds * 1000));
      return true;
    },
    async registered() {
      const row = await registrations().first();
      if (!row) return null;
      return {
        appId: String(row.app_id),
        slug: row.slug,
        ownerLogin: row.owner_login,
        htmlUrl: row.html_url,
        clientId: row.client_id,
        registeredAt: row.registered_at.toISOString(),
      };
    },
    async version() {
      const row = await registrations().select('registered_at').first();
      return row ? row.registered_at.toISOString() : null;
    },
    async credentials(): Promise<GitHubAppCredentials | null> {
      const row = await registrations().first();
      if (!row) return null;
      const appId = String(row.app_id);
      const open = (sealed: string, field: Parameters<typeof context>[1]) => {
        try {
          return openSecret(secretKey, sealed, context(appId, field));
        } catch {
          throw new UnavailableError(
            "The registered GitHub App's secrets do not open with this process's SHIPGATE_SECRET_KEY: every replica and worker must share it (README, Configuration).",
          );
        }
      };
      return {
        source: 'registration',
        appId,
        slug: row.slug,
        privateKey: open(row.private_key_ciphertext, 'private_key'),
        webhookSecret: open(row.webhook_secret_ciphertext, 'webhook_secret'),
        clientId: row.client_id,
        clientSecret: open(row.client_secret_ciphertext, 'client_secret'),
      };
    },
  };
}
