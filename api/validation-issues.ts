import type { z } from 'zod';
import type { ValidationIssue } from '../core/errors.js';

/**
 * zod issues in the `[{loc, msg, type}]` shape every 422 answers with. An issue inside `reportedAsRoot` (a field validated
 * as another route's whole body: RouteDef's `bodyFieldReportedAsBody`) is placed as that route places it.
 */
export function validationIssues(error: z.ZodError, location: 'body' | 'query' | 'path', reportedAsRoot?: string): ValidationIssue[] {
  // The field itself missing or no object is that field's problem (`["body", "gate"]`), not the body's.
  const placedAsRoot = (issue: z.core.$ZodIssue) =>
    reportedAsRoot !== undefined && issue.path[0] === reportedAsRoot && !(issue.path.length === 1 && issue.code === 'invalid_type');
  return error.issues.map((issue) => ({
    loc: [location, ...(placedAsRoot(issue) ? issue.path.slice(1) : issue.path).map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issue.code,
  }));
}
