import { defineRoute } from '../route.js';
import { jwkSetSchema } from '../schemas/policy-schemas.js';

export const complianceKeyRoutes = [
  defineRoute({
    method: 'get',
    path: '/compliance/keys',
    tags: ['compliance'],
    auth: 'public',
    summary: 'The public keys certificates are signed with (JWK set)',
    description:
      'Ed25519 keys, current first, then retired ones (which still verify the certificates they signed). ' +
      "A DSSE signature's keyid is the key's `kid`: hex SHA-256 of the raw public key. " +
      'Save this document and pass it to `shipgate verify <export.json> --keys <file>` to check an audit package offline.',
    responses: { 200: { description: 'The JWK set.', schema: jwkSetSchema } },
    async handler({ deps }) {
      return { body: { keys: await deps.keys.list() }, headers: { 'Cache-Control': 'public, max-age=60' } };
    },
  }),
];
