/**
 * What the bare endpoints of the lower-bound benches write (bench/hooks-lower-bound.ts,
 * bench/mcp-lower-bound.ts): a call's record as shipgate's shape of it, one statement whose
 * commit waits for the flush. $1 session, $2 tool, $3 arguments (JSON), $4 response, $5 envelope.
 */
export const BARE_TABLES = `CREATE TABLE bare_sessions (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), token text UNIQUE, calls int);
  INSERT INTO bare_sessions (token, calls) VALUES ('bench-token', 0);
  CREATE TABLE bare_open (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), session text, tool text, arguments jsonb);
  CREATE TABLE bare_calls (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), session text, tool text, arguments jsonb, response text);
  CREATE TABLE bare_messages (id bigserial PRIMARY KEY, session text, message text);
  CREATE TABLE bare_certificates (id bigserial PRIMARY KEY, session text, envelope jsonb)`;

/** The entry, its transcript message and its certificate, as shipgate records a call. */
export const BARE_RECORD = `WITH c AS (INSERT INTO bare_calls (session, tool, arguments, response) VALUES ($1, $2, $3::jsonb, $4) RETURNING id),
  m AS (INSERT INTO bare_messages (session, message) SELECT $1, $4 FROM c)
  INSERT INTO bare_certificates (session, envelope) SELECT $1, $5::jsonb FROM c`;

/** About the size of a call's DSSE envelope. */
export const BARE_ENVELOPE = JSON.stringify({
  payloadType: 'application/vnd.in-toto+json',
  payload: 'x'.repeat(1200),
  signatures: [{ sig: 'y'.repeat(88) }],
});
