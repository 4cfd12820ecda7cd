import { getJson, send } from '../api.js';
import { h, pill, pre, replace, when } from '../dom.js';
import { hasRole } from '../session.js';
import { pagedList } from './paged-list.js';
import { errorBox } from './submit-form.js';

/** @import { McpServer, McpToolPin, View } from '../../types.js' */

/**
 * What changed in a quarantined tool: the approved definition beside the one listed now
 * (docs/mcp-gateway.md, "Pinned tool definitions"); a new tool has only the latter.
 * @param {McpToolPin} pin
 */
function definitions(pin) {
  if (pin.state === 'pinned') return h('span.muted', {}, pin.current.definition.description ?? '');
  return h(
    'div.tool-diff',
    {},
    pin.pinned
      ? h(
          'div',
          {},
          h('p.muted', {}, `Approved (sha256 ${pin.pinned.digest.slice(0, 12)}…)`),
          h('div.pinned-definition', {}, pre(pin.pinned.definition)),
        )
      : h('p.muted', {}, 'Never approved: new since the server was pinned.'),
    h(
      'div',
      {},
      h('p.muted', {}, `Listed now (sha256 ${pin.current.digest.slice(0, 12)}…)`),
      h('div.current-definition', {}, pre(pin.current.definition)),
    ),
  );
}

/** Whether a tool in this state awaits an ADMIN's decision. */
const awaiting = (/** @type {string | undefined} */ state) => state === 'changed' || state === 'new';

/**
 * One tool's cells: its state and, for a tool awaiting a decision, Approve and Reject (naming the
 * digest shown, so a definition that changed again meanwhile is refused rather than approved).
 * `decided` gets the button pressed and the tool as it stands after the decision.
 * @param {string} server
 * @param {McpToolPin} pin
 * @param {(button: HTMLElement, decided: McpToolPin) => void} decided
 */
function toolCells(server, pin, decided) {
  const problem = h('div', { 'aria-live': 'polite' });
  const decide = (/** @type {'approve' | 'reject'} */ decision, /** @type {string} */ text) => {
    const button = h(decision === 'approve' ? 'button' : 'button.secondary', { type: 'button', 'aria-label': `${text} ${pin.tool}` }, text);
    button.addEventListener('click', async () => {
      button.disabled = true;
      replace(problem);
      try {
        /** @type {McpToolPin} */
        const answer = await send('POST', `mcp/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(pin.tool)}/${decision}`, {
          digest: pin.current.digest,
        });
        decided(button, answer);
      } catch (error) {
        replace(problem, errorBox(error));
        button.disabled = false;
      }
    });
    return button;
  };
  return [
    h('code', {}, pin.tool),
    [pill(pin.state), pin.decided_at ? h('span.muted', {}, ` decided ${when(pin.decided_at)}`) : null],
    definitions(pin),
    [
      awaiting(pin.state) ? h('div.actions', {}, decide('approve', 'Approve'), decide('reject', 'Reject')) : null,
      pin.state === 'rejected' ? decide('approve', 'Approve') : null,
      problem,
    ],
  ];
}

/**
 * One server with its tools (GET /mcp/servers/{name}/tools, ADMIN), a page at a time, awaiting
 * ones first: a decided tool's row is drawn again as the decision answered it. The count of those
 * awaiting is of the pages shown, "+" while a next page may hold more.
 * @param {View} view
 * @param {McpServer} server
 */
async function serverSection(view, server) {
  const count = h('span');
  let more = false;
  const section = h('section.mcp-server', { dataset: { server: server.name } });
  const recount = () => {
    const states = [...section.querySelectorAll('tbody tr')].map((row) => /** @type {HTMLElement} */ (row).dataset.state);
    const waiting = states.filter(awaiting).length;
    const maybeMore = more && awaiting(states.at(-1));
    replace(count, waiting > 0 ? pill(`${waiting}${maybeMore ? '+' : ''} awaiting approval`) : null);
  };
  const list = pagedList(view, `/api/v1/mcp/servers/${encodeURIComponent(server.name)}/tools?limit=20`, {
    headers: ['Tool', 'State', 'Definition', 'Decision'],
    name: `tools of ${server.name}`,
    empty: 'Not listed yet: its tools are pinned as the first session lists them.',
    rowProps: (/** @type {McpToolPin} */ pin) => ({ dataset: { tool: pin.tool, state: pin.state } }),
    row: (/** @type {McpToolPin} */ pin) =>
      toolCells(server.name, pin, (button, decided) => {
        button.closest('tr')?.replaceWith(list.rowOf(decided));
        recount();
      }),
    onPage: (next) => {
      more = next;
      recount();
    },
  });
  replace(section, h('h2', {}, server.name, ' ', count), h('p.muted', {}, server.url), list.element);
  await list.load();
  return section;
}

/**
 * The MCP servers page (ADMIN): each registered upstream and its tools, pinned or awaiting an
 * ADMIN's approval because their definition changed or is new (docs/mcp-gateway.md).
 * @param {View} view
 */
export async function mcpServersPage(view) {
  if (!hasRole('ADMIN')) {
    replace(view.root, h('h1', {}, 'MCP servers'), h('p.notice', {}, 'Only an ADMIN reviews the MCP servers’ tools.'));
    return;
  }
  /** @type {McpServer[]} */
  const servers = await getJson('mcp/servers', { signal: view.signal });
  const sections = await Promise.all(servers.map((server) => serverSection(view, server)));
  replace(
    view.root,
    h('h1', {}, 'MCP servers'),
    h(
      'p.muted',
      {},
      'The upstream MCP servers agents reach through shipgate. A tool whose definition changed since it was pinned, or a new one, ' +
        'is hidden from agents and refused until you approve it here; those are listed first. A server keeps a bounded number of ' +
        'new tools awaiting approval: approving or rejecting them makes room for any further ones it lists.',
    ),
    servers.length === 0 ? h('p.notice', {}, 'No MCP server is registered (POST /api/v1/mcp/servers).') : sections,
  );
}
