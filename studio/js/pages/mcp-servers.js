import { getJson, send } from '../api.js';
import { cell, h, pill, pre, replace, when } from '../dom.js';
import { hasRole } from '../session.js';
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

/**
 * One tool's row: its state and, for a tool awaiting a decision, Approve and Reject (naming the
 * digest shown, so a definition that changed again meanwhile is refused rather than approved).
 * @param {string} server
 * @param {McpToolPin} pin
 * @param {() => Promise<void>} reload
 */
function toolRow(server, pin, reload) {
  const problem = h('div', { 'aria-live': 'polite' });
  const decide = (/** @type {'approve' | 'reject'} */ decision, /** @type {string} */ text) => {
    const button = h(decision === 'approve' ? 'button' : 'button.secondary', { type: 'button', 'aria-label': `${text} ${pin.tool}` }, text);
    button.addEventListener('click', async () => {
      button.disabled = true;
      replace(problem);
      try {
        await send('POST', `mcp/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(pin.tool)}/${decision}`, {
          digest: pin.current.digest,
        });
        await reload();
      } catch (error) {
        replace(problem, errorBox(error));
        button.disabled = false;
      }
    });
    return button;
  };
  const awaiting = pin.state === 'changed' || pin.state === 'new';
  return h(
    'tr',
    { dataset: { tool: pin.tool } },
    cell('Tool', h('code', {}, pin.tool)),
    cell('State', pill(pin.state), pin.decided_at ? h('span.muted', {}, ` decided ${when(pin.decided_at)}`) : null),
    cell('Definition', definitions(pin)),
    cell(
      'Decision',
      awaiting ? h('div.actions', {}, decide('approve', 'Approve'), decide('reject', 'Reject')) : null,
      pin.state === 'rejected' ? decide('approve', 'Approve') : null,
      problem,
    ),
  );
}

/**
 * One server with its tools (GET /mcp/servers/{name}/tools, ADMIN); drawn again after each decision.
 * @param {View} view
 * @param {McpServer} server
 */
async function serverSection(view, server) {
  const section = h('section.mcp-server', { dataset: { server: server.name } });
  const draw = async () => {
    /** @type {McpToolPin[]} */
    const pins = await getJson(`mcp/servers/${encodeURIComponent(server.name)}/tools`, { signal: view.signal });
    const waiting = pins.filter((p) => p.state === 'changed' || p.state === 'new').length;
    replace(
      section,
      h('h2', {}, server.name, ' ', waiting > 0 ? pill(`${waiting} awaiting approval`) : null),
      h('p.muted', {}, server.url),
      pins.length === 0
        ? h('p.notice', {}, 'Not listed yet: its tools are pinned as the first session lists them.')
        : h(
            'table.grid',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Tool', 'State', 'Definition', 'Decision'].map((text) => h('th', {}, text)),
              ),
            ),
            h(
              'tbody',
              {},
              pins.map((pin) => toolRow(server.name, pin, draw)),
            ),
          ),
    );
  };
  await draw();
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
        'is hidden from agents and refused until you approve it here.',
    ),
    servers.length === 0 ? h('p.notice', {}, 'No MCP server is registered (POST /api/v1/mcp/servers).') : sections,
  );
}
