import { z } from 'zod';
import { gateSchema } from '../../core/release/gate.js';
import { blockerSchema, overriddenSchema } from './release-decision-schemas.js';
import { commitShaSchema, timestamp } from './release-schemas.js';

/** How many recent commits a simulation judges at most, and by default (docs/release-gate.md, "Simulating a gate"). */
export const SIMULATION_LIMIT = { max: 1000, default: 200 } as const;

export const gateSimulationRequestSchema = z
  .object({
    gate: gateSchema.meta({
      description:
        'The draft gate, validated exactly as `PUT /releases/gates/{owner}/{repo}` validates its body: its 422 names each problem at the `loc` the PUT would (`["body", "rules", 1, "name"]`, without `gate`).',
    }),
    limit: z.number().int().min(1).max(SIMULATION_LIMIT.max).default(SIMULATION_LIMIT.default).meta({
      description: 'How many of the newest commits and pull request heads to judge (newest first by when shipgate first saw them).',
    }),
  })
  .strict()
  .meta({ id: 'ReleaseGateSimulationRequest' });

export const simulatedDecisionSchema = z
  .object({
    decision: z.enum(['SHIP', 'NO_SHIP']),
    blockers: z
      .array(blockerSchema)
      .meta({ description: 'As the decision would give them: distinct by (code, component); empty if and only if SHIP.' }),
    overridden: z.array(overriddenSchema).meta({
      description:
        'The commit’s overrides in force and the blockers each lifts under this gate, as the decision lists them (docs/release-gate.md, "Overrides"): a draft marking a rule `overridable: false` lifts fewer.',
    }),
  })
  .meta({ id: 'ReleaseSimulatedDecision' });

export const simulatedChangeSchema = z
  .object({
    commit_sha: commitShaSchema,
    pull_request: z
      .number()
      .int()
      .optional()
      .meta({ description: 'The pull request whose head the commit is (or whose merge group it is), when shipgate recorded one.' }),
    before: simulatedDecisionSchema.meta({ description: 'What the gate in force decides now.' }),
    after: simulatedDecisionSchema.meta({ description: 'What the draft would decide now, from the same stored facts.' }),
    unknown_facts: z.array(z.string()).meta({
      description:
        "Facts the draft's decision needed that shipgate does not hold (a pull request's files never read, its authorship not read), in words: the reasons of the `changed_files_unknown` and `agent_provenance_unknown` blockers of `after`. Never guessed: the draft's decision fails closed on them, as it would once saved.",
    }),
  })
  .meta({ id: 'ReleaseSimulatedChange' });

export const gateSimulationSchema = z
  .object({
    repo_root: z.string(),
    judged: z.number().int().meta({ description: 'How many commits were judged: the limit, or fewer when shipgate holds fewer.' }),
    gate_in_force: z
      .object({ version: z.number().int(), digest: z.string() })
      .meta({ description: 'The gate the `before` decisions are judged by (version 0: the built-in default).' }),
    draft_digest: z.string().meta({ description: "SHA-256 of the draft's canonical JSON, as a saved version would record it." }),
    changes: z.array(simulatedChangeSchema).meta({
      description: 'Each judged commit whose decision or blockers (code, component, reason) would change, newest first seen first.',
    }),
    totals: z
      .object({
        flips_to_ship: z.number().int().meta({ description: 'NO_SHIP now, SHIP under the draft.' }),
        flips_to_no_ship: z.number().int().meta({ description: 'SHIP now, NO_SHIP under the draft.' }),
        changed_blockers: z.number().int().meta({ description: 'NO_SHIP either way, for other blockers.' }),
        unchanged: z.number().int().meta({ description: 'Judged alike: the same decision and blockers.' }),
      })
      .meta({ id: 'ReleaseGateSimulationTotals', description: 'They add up to `judged`; the first three to the length of `changes`.' }),
    evaluated_at: timestamp,
  })
  .meta({ id: 'ReleaseGateSimulation' });
