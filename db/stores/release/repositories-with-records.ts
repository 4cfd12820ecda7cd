import type { Knex } from 'knex';

/** Tables whose rows each belong to one repository (`repo_root`), and that a list shows. */
type RepositoryBoundTable = 'promotions' | 'deployment_requests' | 'snapshots' | 'executions' | 'workflows';

/**
 * The repositories that have rows in `table`: the candidates a list asks GitHub about before it
 * shows only the caller's readable ones (docs/api.md, "Repository access"). A loose index scan
 * (one index probe per repository, not a scan of every row) where `repo_root` leads an index.
 */
async function repositoryNamesIn(db: Knex, table: RepositoryBoundTable): Promise<string[]> {
  const rows = await db
    .withRecursive(
      'r',
      db.raw(
        'SELECT (SELECT min(repo_root) FROM ?? WHERE repo_root IS NOT NULL) AS repo_root ' +
          'UNION ALL SELECT (SELECT min(t.repo_root) FROM ?? t WHERE t.repo_root > r.repo_root) FROM r WHERE r.repo_root IS NOT NULL',
        [table, table],
      ),
    )
    .select('repo_root')
    .from('r')
    .whereNotNull('repo_root');
  return rows.map((r: { repo_root: string }) => r.repo_root);
}

/** The repositories with records of each kind a list shows (api/list-reads.ts, `RepositoriesWithRecords`). */
export function createRepositoriesWithRecords(db: Knex) {
  return {
    executions: () => repositoryNamesIn(db, 'executions'),
    workflows: () => repositoryNamesIn(db, 'workflows'),
    snapshots: () => repositoryNamesIn(db, 'snapshots'),
    promotions: () => repositoryNamesIn(db, 'promotions'),
    deploymentRequests: () => repositoryNamesIn(db, 'deployment_requests'),
  };
}
