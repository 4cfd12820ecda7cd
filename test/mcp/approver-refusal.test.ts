import { approverRefusal } from '../../core/mcp/approver-refusal.js';

describe('who may decide a held call (docs/mcp-gateway.md, "Asking a person")', () => {
  const held = { owner_id: 'owner', agent_key_creator: 'key-maker', workflow_actor_id: null };

  it("refuses the session's owner and the agent key's creator, saying which", () => {
    expect(approverRefusal(held, 'owner')).toMatch(/^You own the agent session/);
    expect(approverRefusal(held, 'key-maker')).toMatch(/^You created the agent key/);
  });

  it('refuses the person whose GitHub login triggered the workflow run that opened the session', () => {
    const workflow = { owner_id: 'github-actions', agent_key_creator: null, workflow_actor_id: 'octocat' };
    expect(approverRefusal(workflow, 'octocat')).toMatch(/^You triggered the GitHub Actions workflow run/);
    expect(approverRefusal(workflow, 'grace')).toBeNull();
  });

  it('lets anyone else decide, and a session opened without a key has no creator to refuse', () => {
    expect(approverRefusal(held, 'grace')).toBeNull();
    expect(approverRefusal({ owner_id: 'owner', agent_key_creator: null, workflow_actor_id: null }, 'key-maker')).toBeNull();
  });
});
