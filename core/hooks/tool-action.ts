import { upstreamToolCapability } from '../mcp/upstream-tool-capabilities.js';
import { fetchHosts } from './fetch-hosts.js';
import { shellHosts } from './shell-hosts.js';
import { globsNamingHidden, hiddenFileGlobs } from './hidden-file-globs.js';
import { patchPaths } from './patch-paths.js';
import { powershellLine } from './powershell-line.js';
import { pathReadings } from './path-readings.js';
import { searchedFiles } from './searched-files.js';
import { commandForms, substitutesCommands } from './shell-command-forms.js';
import { shellFileAccess } from './shell-file-access.js';
import { newShellReadBudget, ShellLineTooLong, shellTokens, simpleCommands } from './shell-words.js';
import { edits, kindOf, type Kind } from './tool-kinds.js';

/**
 * What one tool call of a coding agent does, in the policy's terms (docs/agent-hooks.md, "Tools
 * and capabilities"): the capabilities it needs, and what its `tool_rules` match on. Paths are
 * relative to the repository root (the hook input's `cwd`); one outside it stays absolute.
 */
export interface ToolAction {
  /** The tool as the agent named it (`Bash`, `run_shell_command`, `mcp__github__create_issue`). */
  tool: string;
  capabilities: string[];
  /** The command line of a shell call. */
  command?: string;
  /** The forms of that command line a `command` rule is matched against (shell-command-forms.ts); none for other tools. */
  commands: string[];
  /** Each simple command of that line in its own forms (an `allow` rule must cover every one). */
  simpleCommands: string[][];
  /** The line holds a command substitution, which no `allow` rule covers. */
  substitutes: boolean;
  reads: string[];
  writes: string[];
  /** Paths the call may read that no `allow` rule must name (an edit's files, what an unknown program is handed): a `read` rule that refuses holds for them. */
  alsoRead?: string[];
  /** Paths the call may write that no `allow` rule must name (what an unknown program is handed): a `write` rule that refuses holds for them. */
  alsoWritten?: string[];
  hosts: string[];
  /** Why the input is not one the tool runs (a shell call without a command line, a file tool without a path): it is refused. */
  malformed?: string;
}

/** Claude Code names an MCP tool `mcp__<server>__<tool>`. */
const MCP_PREFIX = 'mcp__';

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** A command line's tokens and simple commands, or why it holds more than shipgate reads (SHELL_READ_LIMITS, nested scripts). */
function readShellLine(command: string) {
  const budget = newShellReadBudget();
  try {
    const tokens = shellTokens(command, budget);
    return { tokens, commands: simpleCommands(tokens, budget) };
  } catch (error) {
    if (error instanceof ShellLineTooLong) return { refused: error.message };
    throw error;
  }
}

/** Every path a file tool's input names (Claude: `file_path`, `notebook_path`; Copilot: `path`; Gemini: `file_path`, `absolute_path`, `paths`, `include`). */
/**
 * The longest command line read (docs/agent-hooks.md, "Shell commands and files"): reading one
 * costs time in proportion to its length on the event loop, and an agent's hook input may be 8
 * MiB; a longer one is refused rather than read in part (what lies past a part would go unread).
 */
export const MAX_COMMAND_CHARS = 256 * 1024;
/** The longest path a file tool may name: Linux opens none longer (PATH_MAX). */
export const MAX_PATH_CHARS = 4096;

const PATH_FIELDS = ['file_path', 'notebook_path', 'absolute_path', 'path', 'dir_path'];
const LIST_FIELDS = ['paths', 'include'];

function inputPaths(input: Record<string, unknown>): string[] {
  const single = PATH_FIELDS.map((k) => str(input[k])).filter((p) => p !== undefined);
  const many = [input.paths, input.include].flatMap((list) =>
    Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [],
  );
  return [...single, ...many, ...(str(input.include) ? [str(input.include)!] : [])];
}

/** Why a file tool's input names no file it could run on: a path field that is no string, or none at all. */
function pathProblem(tool: string, input: Record<string, unknown>): string | undefined {
  const bad = PATH_FIELDS.find((k) => k in input && typeof input[k] !== 'string');
  if (bad) return `${tool}'s ${bad} must be a path`;
  const list = LIST_FIELDS.find(
    (k) => k in input && typeof input[k] !== 'string' && !(Array.isArray(input[k]) && input[k].every((p) => typeof p === 'string')),
  );
  if (list) return `${tool}'s ${list} must be paths`;
  const paths = inputPaths(input);
  if (paths.some((p) => p.length > MAX_PATH_CHARS)) return `${tool} names a path longer than ${MAX_PATH_CHARS} characters`;
  return paths.length === 0 ? `${tool} names no file` : undefined;
}

/**
 * The globs of Gemini's read_many_files, which it expands with `dot: true`: a star alone names
 * hidden files too (`**\/*` reads `.env.local`), and with its filters turned off
 * (`useDefaultExcludes`, `.gitignore` and `.geminiignore`) any star does (`*.local`).
 */
function manyFilesGlobs(input: Record<string, unknown>): string[] {
  const filtering = input.file_filtering_options as Record<string, unknown> | undefined;
  const unfiltered =
    input.useDefaultExcludes === false || filtering?.respect_git_ignore === false || filtering?.respect_gemini_ignore === false;
  return globsNamingHidden(inputPaths(input), !unfiltered);
}

/**
 * The capabilities and matchable facts of one tool call: shell `shell:exec` (with the command
 * line, and the files it plainly reads or writes), reads `fs:read:<path>`, writes and edits
 * `fs:write:<path>`, searches `fs:read:<dir>`, fetches `network:<host>`, web searches
 * `network:web-search`, sub-agents `agent:spawn`, MCP tools `mcp:<server>/<tool>` (Claude's
 * `mcp__<server>__<tool>`, or any tool whose server and own name the agent reports), and any
 * other tool `tool:<name>`.
 */
export function toolAction(
  tool: string,
  input: Record<string, unknown>,
  cwd: string,
  mcp?: { server: string; tool?: string },
  root = cwd,
): ToolAction {
  const action: ToolAction = {
    tool,
    capabilities: [],
    commands: [],
    simpleCommands: [],
    substitutes: false,
    reads: [],
    writes: [],
    hosts: [],
  };
  if (mcp?.tool) {
    action.capabilities.push(upstreamToolCapability(mcp.server, mcp.tool));
    return action;
  }
  if (tool.startsWith(MCP_PREFIX)) {
    const rest = tool.slice(MCP_PREFIX.length);
    const cut = rest.indexOf('__');
    const server = mcp?.server ?? (cut > 0 ? rest.slice(0, cut) : rest);
    const name = cut > 0 ? rest.slice(cut + 2) : rest;
    action.capabilities.push(upstreamToolCapability(server, name));
    return action;
  }
  const kind = kindOf(tool, input);
  // Each path is read from the working directory, in time in proportion to it: a longer one than Linux opens is refused first.
  if (
    Math.max(cwd.length, root.length) > MAX_PATH_CHARS &&
    kind !== undefined &&
    kind !== 'fetch' &&
    kind !== 'web_search' &&
    kind !== 'agent'
  ) {
    action.malformed = `the working directory (cwd) is longer than ${MAX_PATH_CHARS} characters`;
  } else {
    describeCall(action, kind, input, cwd, root);
  }
  // A file tool without a path, a fetch without a URL: still a call that needs its kind's grant.
  if (action.capabilities.length === 0)
    action.capabilities.push(
      kind === 'fetch' ? 'network:unknown' : kind === 'shell' ? 'shell:exec' : `fs:${kind === 'write' ? 'write' : 'read'}:.`,
    );
  return action;
}

/** The most characters of paths one call is read with (every reading of every path, from the working directory). */
export const MAX_PATHS_CHARS = 512 * 1024;

function describeCall(action: ToolAction, kind: Kind | undefined, input: Record<string, unknown>, cwd: string, root: string): void {
  const { tool } = action;
  let spent = 0;
  /** The readings of each path, relative and absolute; false once they pass MAX_PATHS_CHARS (the call is then refused). */
  const readings = (paths: readonly string[], into: 'reads' | 'writes' | 'alsoRead'): boolean => {
    for (const path of paths) {
      if (path.length > MAX_PATH_CHARS) {
        action.malformed = `${tool} names a path longer than ${MAX_PATH_CHARS} characters`;
        return false;
      }
      const r = pathReadings(root, cwd, path);
      spent += r.reduce((n, p) => n + p.length, 0);
      if (spent > MAX_PATHS_CHARS) {
        action.malformed = `${tool} names more than ${MAX_PATHS_CHARS / 1024} KiB of paths, which shipgate does not read`;
        return false;
      }
      (action[into] ??= []).push(...r);
    }
    return true;
  };
  switch (kind) {
    case 'shell': {
      const line = tool === 'write_bash' ? input.input : input.command;
      if (typeof line !== 'string' || line.trim() === '') action.malformed = `${tool} needs its command line as a string`;
      action.command = str(line) ?? '';
      action.capabilities.push('shell:exec');
      if (action.command.length > MAX_COMMAND_CHARS) {
        action.malformed = `${tool}'s command line is longer than ${MAX_COMMAND_CHARS / 1024} KiB: write such content with a file tool`;
        return;
      }
      // A PowerShell line is read as the shell reader can read it: its forms are of that reading.
      const readable = tool === 'powershell' ? powershellLine(action.command) : action.command;
      const read = readShellLine(readable);
      if ('refused' in read) {
        action.malformed = `${tool}'s command line ${read.refused}: write such content with a file tool`;
        return;
      }
      const { tokens, commands } = read;
      const forms = commandForms(readable, tokens, commands);
      action.commands = forms.forms;
      action.simpleCommands = forms.each;
      action.substitutes = substitutesCommands(readable);
      action.hosts = shellHosts(commands);
      const dir = str(input.directory) ?? str(input.dir_path);
      if (dir !== undefined && dir.length > MAX_PATH_CHARS) {
        action.malformed = `${tool}'s directory is longer than ${MAX_PATH_CHARS} characters`;
        return;
      }
      const files = shellFileAccess(readable, commands);
      if (files.tooLong) {
        action.malformed = `${tool}'s command line names a path longer than ${MAX_PATH_CHARS} characters (Linux opens none), or more paths than shipgate reads: write such content with a file tool`;
        return;
      }
      const inDir = (p: string) => (dir && !p.startsWith('/') ? `${dir}/${p}` : p);
      const paths = (list: string[]) => hiddenFileGlobs(readable, list.map(inDir));
      // What an unknown program is handed it may read and write: one reading of its paths serves both.
      if (
        readings(paths(files.reads), 'reads') &&
        readings(paths(files.writes), 'writes') &&
        files.handed &&
        readings(paths(files.handed), 'alsoRead')
      )
        action.alsoWritten = action.alsoRead;
      return;
    }
    case 'read':
      action.malformed = pathProblem(tool, input);
      if (readings(tool === 'read_many_files' ? manyFilesGlobs(input) : inputPaths(input), 'reads'))
        action.capabilities.push(...action.reads.map((p) => `fs:read:${p}`));
      return;
    case 'write': {
      const patch = tool === 'apply_patch' ? patchText(input) : undefined;
      action.malformed = patch === undefined ? pathProblem(tool, input) : patch.malformed;
      if (readings(patch?.paths ?? inputPaths(input), 'writes')) action.capabilities.push(...action.writes.map((p) => `fs:write:${p}`));
      if (edits(tool, input)) action.alsoRead = [...action.writes];
      return;
    }
    case 'search': {
      const dir = PATH_FIELDS.map((k) => str(input[k])).find((p) => p !== undefined) ?? '.';
      if (!readings([dir], 'reads')) return;
      action.capabilities.push(...action.reads.map((p) => `fs:read:${p}`));
      // The files a content search reads, as globs: a deny or ask `read` rule holds if one could name a file it names.
      readings(searchedFiles(tool, dir, str(input.glob) ?? str(input.include)), 'reads');
      return;
    }
    case 'fetch': {
      const { hosts, malformed } = fetchHosts(input);
      action.hosts = hosts;
      if (malformed) action.malformed = `${tool}'s ${malformed}`;
      action.capabilities.push(...hosts.map((h) => `network:${h}`));
      return;
    }
    case 'web_search':
      action.capabilities.push('network:web-search');
      return;
    case 'agent':
      action.capabilities.push('agent:spawn');
      return;
    default:
      action.capabilities.push(`tool:${tool}`);
  }
}

/** An apply_patch call's patch (`input` or `patch`) and the files it writes, or why it names none. */
function patchText(input: Record<string, unknown>): { paths: string[]; malformed?: string } {
  const patch = str(input.input) ?? str(input.patch);
  if (patch === undefined) return { paths: [], malformed: 'apply_patch needs its patch as a string' };
  const paths = patchPaths(patch);
  return paths.length === 0 ? { paths, malformed: 'apply_patch names no file' } : { paths };
}
