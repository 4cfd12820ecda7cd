import type { Knex } from 'knex';

export interface WorkerHeartbeatStore {
  beat(workerId: string): Promise<void>;
  /** When any worker was last seen, or null if none ever was. */
  latest(): Promise<Date | null>;
}

export function createWorkerHeartbeatStore(db: Knex): WorkerHeartbeatStore {
  return {
    async beat(workerId) {
      await db('worker_heartbeats').insert({ worker_id: workerId, seen_at: db.fn.now() }).onConflict('worker_id').merge();
    },
    async latest() {
      const row = await db('worker_heartbeats').max('seen_at as seen_at').first();
      return (row?.seen_at as Date | null) ?? null;
    },
  };
}
