import type { FakeReply, LlmRequest } from '../../fakes/fake-llm-server.js';
import { taskOf, toolAnswers } from '../../executions/support/agent-replies.js';

export interface StageModelOptions {
  /** What the reviewer decides (submit_review approved_for_release). */
  approve?: boolean;
  /** The reviewer also tries a tool its role does not hold (a blocking violation under hipaa/sox). */
  reviewerOverreaches?: boolean;
  /** The reviewer approves, then submits a second review retracting it. */
  retracts?: boolean;
  /** Answer the stage whose task starts with this with a provider error (the stage fails). */
  failing?: string;
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/**
 * A fake model for reviewed-release workflows, telling stages apart by their task's first word:
 * `Review...` submits a review, `Release...` records release notes, anything else answers at once.
 */
export function stageModel(options: StageModelOptions = {}) {
  return (request: LlmRequest): FakeReply => {
    const task = taskOf(request);
    if (options.failing && task.startsWith(options.failing)) return { status: 400, errorMessage: 'fake: this stage fails' };
    const answered = toolAnswers(request) > 0;
    if (task.startsWith('Review')) {
      if (answered) return { text: `Review done: ${options.approve === false ? 'not approved' : 'approved'}.` };
      return {
        toolCalls: [
          call('submit_review', { approved_for_release: options.approve ?? true, summary: 'Read the change; tests cover it.' }),
          ...(options.retracts ? [call('submit_review', { approved_for_release: false, summary: 'RETRACTED: a critical bug.' })] : []),
          ...(options.reviewerOverreaches
            ? [call('record_release_notes', { content: 'A reviewer may not write the release notes.' })]
            : []),
        ],
      };
    }
    if (task.startsWith('Release')) {
      if (answered) return { text: 'Released v1.2.0 with the reviewed notes.' };
      return { toolCalls: [call('read_upstream', {}), call('record_release_notes', { content: 'v1.2.0: reviewed and approved.' })] };
    }
    return { text: `Done: ${task}` };
  };
}

/** A reviewer -> release -> announce workflow request, optionally bound to a commit. */
export function reviewedRelease(fields: Record<string, unknown> = {}, policy = 'default') {
  return {
    name: 'Reviewed release v1.2.0',
    stages: [
      { id: 'review', name: 'Review', task: 'Review the change for release.', stage_role: 'reviewer', compliance_policy: policy },
      { id: 'release', name: 'Release', task: 'Release v1.2.0.', stage_role: 'release', upstream_stage_ids: ['review'] },
      { id: 'announce', name: 'Announce', task: 'Announce the release.' },
    ],
    ...fields,
  };
}
