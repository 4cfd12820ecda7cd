import { z } from 'zod';

export const errorSchema = z
  .object({
    detail: z.union([z.string(), z.record(z.string(), z.unknown())]),
    request_id: z.string().optional(),
  })
  .meta({ id: 'Error' });

export const validationErrorSchema = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.number()])),
        msg: z.string(),
        type: z.string(),
      }),
    ),
  })
  .meta({ id: 'ValidationError' });
