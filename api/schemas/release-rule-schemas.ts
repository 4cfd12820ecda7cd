import { z } from 'zod';
import { APPROVAL_REFUSALS } from '../../core/release/authorship.js';
import type { ChangedFilesSummary, RuleOutcome } from '../../core/release/rule-outcome.js';

const CHANGED_FILES_STATUSES = ['read', 'file_limit', 'unreadable', 'not_read'] as const satisfies readonly ChangedFilesSummary['status'][];

/** The decision's account of what a pull request changes (core/release/rule-outcome.ts). */
export const changedFilesSummarySchema = z
  .object({
    count: z.number().int().nullable().meta({ description: 'How many files the pull request changes; null when they could not be read.' }),
    paths: z.array(z.string()).meta({ description: 'The first 20 changed paths.' }),
    status: z.enum(CHANGED_FILES_STATUSES).meta({
      description:
        '`read`: every file is known; `file_limit`: more files than GitHub lists (3,000); `unreadable`: GitHub could not be read; `not_read`: not read from GitHub (docs/release-gate.md, "Rules").',
    }),
    text: z.string().meta({
      description: 'The same in one sentence, as the check run says it (e.g. `It changes 3,000 files.`).',
    }),
  })
  .meta({ id: 'ReleaseChangedFiles' }) satisfies z.ZodType<ChangedFilesSummary & { text: string }>;

/** How one applying rule of the gate (or its protected paths, named `protected_paths`) was judged. */
export const ruleOutcomeSchema = z
  .object({
    name: z.string().meta({ description: 'The rule’s name; `protected_paths` for the gate’s protected paths.' }),
    met: z.boolean(),
    triggered_by: z.array(z.string()).meta({ description: 'The first few changed paths that made the rule apply.' }),
    missing: z
      .string()
      .nullable()
      .meta({ description: 'What is missing, in words (`needs 2 approvals from acme/sre; has 1: @ana`); null when met.' }),
    disapproved_by: z.array(z.string()).meta({ description: 'Logins whose "changes requested" review blocks the rule.' }),
    approvals: z.array(
      z.object({
        login: z.string(),
        counted: z.boolean(),
        reason: z
          .enum([...APPROVAL_REFUSALS, 'not_an_approver'])
          .nullable()
          .meta({ description: 'Why it does not count for this rule; null when it counts.' }),
      }),
    ),
  })
  .meta({ id: 'ReleaseRuleOutcome' }) satisfies z.ZodType<RuleOutcome>;
