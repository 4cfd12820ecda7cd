import type { Knex } from 'knex';

/**
 * A tool call's certificate moves to a table of its own, keyed like its call (execution_id, seq),
 * apart from the execution certificates that stay in `certificates` (docs/benchmarks.md, "What
 * moved the figures"). What `certificates` carries exists for execution certificates only: the
 * generated `envelope_sha256` (the decision's verification cache key, migration 012), the
 * release-state triggers (migration 014) and the `ordinal` sequence, and inserting a tool call's
 * certificate there set all of them up each time. A step's statement now inserts a row with its
 * two keys: the call's, and the certificate id (unique as before). Rows are moved as they are (same id, digest and envelope), so every certificate verifies and
 * chains as before; one whose tool call is missing stays where it was, and is still read.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE tool_call_certificates (
      execution_id uuid NOT NULL,
      seq integer NOT NULL,
      id uuid NOT NULL,
      theorem text NOT NULL,
      plan_hash text NOT NULL,
      verified_properties jsonb NOT NULL,
      prover text NOT NULL,
      issued_at timestamptz NOT NULL,
      digest text NOT NULL,
      envelope jsonb NOT NULL,
      PRIMARY KEY (execution_id, seq),
      UNIQUE (id)
    );
    INSERT INTO tool_call_certificates (execution_id, seq, id, theorem, plan_hash, verified_properties, prover, issued_at, digest, envelope)
      SELECT t.execution_id, t.seq, c.id, c.theorem, c.plan_hash, c.verified_properties, c.prover, c.issued_at, c.digest, c.envelope
      FROM certificates c JOIN tool_calls t ON t.certificate_id = c.id AND t.execution_id = c.execution_id
      WHERE c.kind = 'tool_call';
    DELETE FROM certificates c USING tool_call_certificates m WHERE c.id = m.id AND c.kind = 'tool_call';
  `);
}
