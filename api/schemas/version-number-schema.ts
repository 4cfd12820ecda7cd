import { z } from 'zod';

/**
 * A version number in a query (a policy's, a gate's): stored as PostgreSQL's `integer`, so one
 * past 2^31-1 is no version at all, refused at its parameter (it was a 422 of the whole request
 * from the database).
 */
export const versionNumberQuerySchema = z.coerce.number().int().min(1).max(2_147_483_647);
