/**
 * Resources with an owner (docs/api.md, "Roles"; core/executions/execution-access.ts: owner; ADMIN and AUDITOR read all; ADMIN may cancel all).
 * A kind is tested once its create route is mounted, over every mounted route whose path names
 * its parameter, so routes added later are covered without editing the test.
 */
export interface OwnedKind {
  /** The path parameter naming one, e.g. `execution_id`. */
  param: string;
  /** POST route (relative to /api/v1) an OPERATOR creates one with, and a body it accepts. */
  create: { path: string; body: Record<string, unknown> };
  /** The caller's own list. */
  list: string;
  /** What an AUDITOR's DELETE of someone else's resource answers, as the route documents it. */
  auditorCancel: number[];
}

export const OWNED_KINDS: OwnedKind[] = [
  {
    param: 'execution_id',
    create: { path: '/tasks', body: { task: 'Owned by the operator who asked.' } },
    list: '/executions',
    // "an AUDITOR may read but not cancel another user's execution (403)": reading is allowed, so 403 reveals nothing.
    auditorCancel: [403],
  },
  {
    param: 'workflow_id',
    create: { path: '/workflows', body: { name: 'Owned workflow', stages: [{ name: 'only', task: 'Owned by the operator who asked.' }] } },
    list: '/workflows',
    auditorCancel: [403, 404],
  },
];
