import type { z } from 'zod';
import type { ValidationIssue } from '../core/errors.js';

/** zod issues in the `[{loc, msg, type}]` shape every 422 answers with. */
export function validationIssues(error: z.ZodError, location: 'body' | 'query' | 'path'): ValidationIssue[] {
  return error.issues.map((issue) => ({
    loc: [location, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issue.code,
  }));
}
