/** The shortest encoded run taken out of an answer: shorter ones would match ordinary text by chance. */
const MIN_ENCODED_LENGTH = 12;

/** The base64 characters that encode `bytes` alone when they follow `offset` other bytes (0, 1 or 2) in what is encoded. */
function base64Core(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

/**
 * The ways an upstream may spell a secret it echoes back (docs/mcp-gateway.md, "Least-privilege
 * upstream credentials"): as it is, percent-encoded, as hex, and as the base64 (standard and
 * URL-safe) of it at each of the three places it can start in a longer base64 text (a token
 * inside an encoded `Authorization` header, a JSON document, a JWT's payload); each encoded
 * spelling only where its characters come from the secret alone, and long enough not to occur by
 * chance.
 */
export function secretSpellings(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const base64 = [0, 1, 2].map((offset) => base64Core(bytes, offset));
  const encoded = [
    encodeURIComponent(secret),
    bytes.toString('hex'),
    ...base64,
    ...base64.map((core) => core.replace(/\+/g, '-').replace(/\//g, '_')),
  ].filter((spelling) => spelling !== secret && spelling.length >= MIN_ENCODED_LENGTH);
  return [secret, ...new Set(encoded)];
}
