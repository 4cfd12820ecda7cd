import type { Knex } from 'knex';

/**
 * A session's calls counted when they are allowed (docs/agent-hooks.md, "How a call is
 * decided"). Counted by its recorded entries alone, a session of `max_tool_calls: 3` allowed
 * every pre hook whose post had not come yet (an agent's parallel calls, or posts that never
 * come) and then recorded past its limit.
 *
 * `agent_sessions.calls_taken` is the number of calls the session has taken from its limit: a
 * call a pre hook allows takes one when it is opened (a conditional UPDATE of the session's row,
 * so two replicas opening calls at once cannot both take the last), and every other entry
 * recorded (a denial, a gateway call) takes one when it is inserted, by the trigger below. An
 * entry that completes an opened call (its post) takes none: the trigger marks that call
 * `completed` in the same transaction, which is also how an open call is told from a done one.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE hook_calls ADD COLUMN completed boolean NOT NULL DEFAULT false;
    UPDATE hook_calls h SET completed = true
      WHERE EXISTS (SELECT 1 FROM tool_calls t WHERE t.execution_id = h.execution_id AND t.call_id = h.call_id);

    ALTER TABLE agent_sessions ADD COLUMN calls_taken integer NOT NULL DEFAULT 0;
    UPDATE agent_sessions s SET calls_taken =
      (SELECT count(*) FROM tool_calls t WHERE t.execution_id = s.execution_id)
      + (SELECT count(*) FROM hook_calls h WHERE h.execution_id = s.execution_id AND NOT h.completed);

    CREATE FUNCTION shipgate_tool_call_recorded() RETURNS trigger
    LANGUAGE plpgsql SET search_path = public AS $$
    BEGIN
      UPDATE hook_calls SET completed = true WHERE execution_id = NEW.execution_id AND call_id = NEW.call_id AND NOT completed;
      IF NOT FOUND THEN
        UPDATE agent_sessions SET calls_taken = calls_taken + 1 WHERE execution_id = NEW.execution_id;
      END IF;
      RETURN NULL;
    END
    $$;

    CREATE TRIGGER tool_call_recorded AFTER INSERT ON tool_calls
      FOR EACH ROW EXECUTE FUNCTION shipgate_tool_call_recorded();
  `);
}
