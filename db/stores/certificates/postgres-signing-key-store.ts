import type { Knex } from 'knex';
import { sendSql } from '../../send-sql.js';
import { publicKeyFromJwk } from '../../../core/certificates/public-jwk.js';
import type { SigningKeyStore } from '../../../core/certificates/signing-key-store.js';
import type { PublicJwk } from '../../../core/certificates/types.js';
import type { SigningKeyRow } from '../../tables.js';

const KEY_ROTATION_LOCK = 7_140_003;

function toJwk(row: SigningKeyRow): PublicJwk {
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: row.public_jwk.x,
    kid: row.keyid,
    use: 'sig',
    alg: 'EdDSA',
    status: row.retired_at ? 'retired' : 'current',
    created_at: row.created_at.toISOString(),
    retired_at: row.retired_at ? row.retired_at.toISOString() : null,
  };
}

async function listRows(db: Knex): Promise<PublicJwk[]> {
  const rows = await db<SigningKeyRow>('signing_keys').select('*').orderByRaw('retired_at DESC NULLS FIRST, created_at DESC');
  return rows.map(toJwk);
}

export function createSigningKeyStore(db: Knex): SigningKeyStore {
  return {
    async makeCurrent(jwk) {
      if (!publicKeyFromJwk(jwk)) throw new TypeError('Not an Ed25519 public JWK.');
      return db.transaction(async (trx) => {
        // Replicas starting together must agree on one current key.
        await sendSql(trx, 'SELECT pg_advisory_xact_lock($1)', [KEY_ROTATION_LOCK]);
        await trx('signing_keys').whereNull('retired_at').whereNot({ keyid: jwk.kid }).update({ retired_at: trx.fn.now() });
        await trx('signing_keys')
          .insert({ keyid: jwk.kid, public_jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x } })
          .onConflict('keyid')
          .merge({ retired_at: null });
        return listRows(trx);
      });
    },
    list: () => listRows(db),
  };
}
