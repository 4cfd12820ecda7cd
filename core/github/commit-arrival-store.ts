/** A push as shipgate received it: the commits it brought to a branch of a repository. */
export interface PushArrival {
  repo_root: string;
  branch: string;
  shas: string[];
  /** The delivery that reported it. */
  delivery_id: string;
}

/**
 * Storage port of commit arrivals (db/stores/github/postgres-commit-arrival-store.ts, migration 025):
 * when shipgate received the push that brought each commit to each branch, by its own clock
 * (docs/mcp-gateway.md, "Sessions and the commits they produced").
 */
export interface CommitArrivalStore {
  /** Records the push received at `receivedAt`; per repository, commit and branch the earliest arrival is kept. */
  recordPush(push: PushArrival, receivedAt: Date): Promise<void>;
}
