import { z } from 'zod';
import { HOOK_AGENTS } from '../../core/hooks/hook-call.js';

export const hookSettingsQuerySchema = z.object({
  agent: z.enum(HOOK_AGENTS).meta({ description: 'The coding agent whose configuration file to hand out.' }),
});

export const hookSettingsFileSchema = z
  .object({
    agent: z.enum(HOOK_AGENTS),
    path: z.string().meta({
      description: 'Where the file goes, relative to the repository root.',
      example: '.claude/settings.json',
    }),
    settings: z
      .record(z.string(), z.unknown())
      .meta({ description: "The file's JSON content: hooks sending every tool call to `POST /api/v1/hooks/{agent}`." }),
    env: z.record(z.string(), z.string()).meta({
      description:
        "The environment variables the agent's process needs and what to set each to: `SHIPGATE_TOKEN` (the session token or agent key; " +
        'only described here, never its value) and, for command hooks, `SHIPGATE_URL`.',
    }),
    timeout_seconds: z.int().meta({
      description: "Each hook's own timeout: the policy's `ask_timeout_seconds` plus a margin, so shipgate answers a held call first.",
    }),
  })
  .meta({ id: 'HookSettingsFile' });
