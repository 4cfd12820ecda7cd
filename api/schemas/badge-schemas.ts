import { z } from 'zod';

export const badgeQuerySchema = z.object({
  repo: z.string().min(1).max(300).meta({ description: '`owner/repo`; anything else shows Unknown.', example: 'acme/widgets' }),
  commit: z.string().min(1).max(255).meta({ description: 'A 40-hex SHA, `HEAD`, or a branch name.', example: 'HEAD' }),
});
