import type { McpUpstream } from '../../core/mcp/mcp-server-registry.js';
import type { McpUpstreamClient, UpstreamEvents, UpstreamTool } from '../../core/mcp/mcp-upstream-client.js';
import { SessionUpstreams } from '../../core/mcp/session-upstreams.js';

const readOnly = { readOnlyHint: true, openWorldHint: false };
const tool = (name: string): UpstreamTool => ({ name, inputSchema: { type: 'object' }, annotations: readOnly });

/** A fake upstream "github" that counts what the gateway does with it. */
function fakeUpstream() {
  const counts = { connects: 0, lists: 0, calls: 0, closes: 0, reads: 0 };
  const state = { tools: [tool('get_issue')], failNextCall: false, url: 'https://mcp.example.com/mcp', registered: true };
  let events: UpstreamEvents | undefined;
  const client: McpUpstreamClient = {
    async connect(_upstream, _ms, e) {
      counts.connects += 1;
      events = e;
      return {
        async listTools() {
          counts.lists += 1;
          return state.tools;
        },
        async callTool(name) {
          counts.calls += 1;
          if (state.failNextCall) {
            state.failNextCall = false;
            throw new Error('upstream went away');
          }
          return { content: [{ type: 'text', text: `called ${name}` }], isError: false };
        },
        async close() {
          counts.closes += 1;
        },
      };
    },
    checkArguments: () => null,
  };
  const registration = (): McpUpstream => ({
    name: 'github',
    url: state.url,
    header_names: [],
    headers: {},
    tools: null,
    auth: null,
    created_at: new Date(0).toISOString(),
  });
  const upstreams = new SessionUpstreams(
    {
      client,
      registry: {
        async upstreams(names) {
          counts.reads += 1;
          return state.registered && names.includes('github') ? [registration()] : [];
        },
      },
      log: () => {},
    },
    ['github'],
  );
  return { counts, state, upstreams, toolsChanged: () => events?.onToolsChanged() };
}

describe("an MCP session's upstreams", () => {
  it('are connected once and listed once, whatever the number of calls, until the session ends', async () => {
    const { counts, upstreams } = fakeUpstream();
    expect((await upstreams.tools()).map((t) => t.name)).toEqual(['github__get_issue']);
    for (let i = 0; i < 3; i++) {
      const found = await upstreams.tool('github__get_issue');
      expect(await upstreams.call(found!, {}, 30_000)).toMatchObject({ content: [{ text: 'called get_issue' }] });
    }
    expect(counts).toMatchObject({ connects: 1, lists: 1, calls: 3, closes: 0 });
    await upstreams.close();
    expect(counts.closes).toBe(1);
    await expect(upstreams.tools()).rejects.toThrow(/ended/);
  });

  it('list the tools again when the upstream says they changed', async () => {
    const { counts, state, upstreams, toolsChanged } = fakeUpstream();
    await upstreams.tools();
    state.tools = [tool('get_issue'), tool('list_issues')];
    expect((await upstreams.tools()).map((t) => t.name)).toEqual(['github__get_issue']);
    toolsChanged();
    expect((await upstreams.tools()).map((t) => t.name)).toEqual(['github__get_issue', 'github__list_issues']);
    expect(counts).toMatchObject({ connects: 1, lists: 2 });
  });

  it('list the tools again when a call names a tool not listed, once per such call', async () => {
    const { counts, state, upstreams } = fakeUpstream();
    await upstreams.tools();
    state.tools = [tool('get_issue'), tool('list_issues')];
    expect((await upstreams.tool('github__list_issues'))?.upstreamName).toBe('list_issues');
    expect(await upstreams.tool('github__delete_repo')).toBeNull();
    expect(await upstreams.tool('gitlab__get_issue')).toBeNull();
    expect(counts.lists).toBe(3);
  });

  it('open a new connection after one failed a call, or when the registration changed', async () => {
    const { counts, state, upstreams } = fakeUpstream();
    const call = async () => upstreams.call((await upstreams.tool('github__get_issue'))!, {}, 30_000);
    state.failNextCall = true;
    await expect(call()).rejects.toThrow('upstream went away');
    expect(counts).toMatchObject({ connects: 1, closes: 1 });
    await call();
    expect(counts).toMatchObject({ connects: 2, closes: 1 });
    state.url = 'https://mcp2.example.com/mcp';
    await call();
    expect(counts).toMatchObject({ connects: 3, closes: 2 });
    state.registered = false;
    expect(await upstreams.tool('github__get_issue')).toBeNull();
    expect(counts).toMatchObject({ connects: 3, closes: 3 });
  });

  it("read the registrations for a call only when the version read with the call's state changed", async () => {
    const { counts, state, upstreams } = fakeUpstream();
    await upstreams.tool('github__get_issue', 'github@1');
    await upstreams.tool('github__get_issue', 'github@1');
    expect(counts.reads).toBe(1);
    state.url = 'https://mcp2.example.com/mcp';
    const moved = await upstreams.tool('github__get_issue', 'github@2');
    expect(counts.reads).toBe(2);
    expect(moved?.upstream.url).toBe('https://mcp2.example.com/mcp');
  });
});
