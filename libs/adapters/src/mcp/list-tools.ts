import type { MCPClientBase, MCPListToolsResult, MCPTool } from './mcp-client-adapter.js';
import { MCPProtocolError, MCPToolsNotFoundError } from './mcp-errors.js';

/** Options of {@link listMCPTools}. */
export interface ListMCPToolsOptions {
  /**
   * Native names of the tools to keep. When set, listing goes on until every one is found and
   * fails fast when one is missing; `[]` lists nothing and makes no request.
   * @default every tool (up to `maxItems`)
   */
  tools?: readonly string[];
  /** Follow `nextCursor` to read every page. @default true */
  autoPaginate?: boolean;
  /**
   * The most tools to read from the server. Without `tools`, the list is cut there; with
   * `tools`, reaching it before all are found throws.
   * @default 100
   */
  maxItems?: number;
}

/** Default of {@link ListMCPToolsOptions.maxItems}. */
export const DEFAULT_MAX_TOOLS = 100;

/**
 * Lists the tools of an MCP server, page by page, and returns them sorted by name (so the tool
 * set the model sees, and the cache entry, do not depend on the server's order).
 *
 * @throws {MCPToolsNotFoundError} when `tools` names tools that are not found within the pages
 * read and `maxItems`; the message lists what is missing and what was found.
 * @throws {MCPProtocolError} on a tool without a name, the same name twice on one page, or a
 * cursor the server already returned (a loop).
 */
export async function listMCPTools(
  client: MCPClientBase,
  options: ListMCPToolsOptions = {},
): Promise<MCPTool[]> {
  const wanted = options.tools ? new Set(options.tools) : undefined;
  if (wanted?.size === 0) return [];
  const maxItems = options.maxItems ?? DEFAULT_MAX_TOOLS;
  const autoPaginate = options.autoPaginate ?? true;

  const listed = new Map<string, MCPTool>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await listPage(client, cursor);
    for (const tool of page.tools) {
      if (listed.size >= maxItems) break;
      // The first definition wins when pages overlap; one page naming a tool twice is an error.
      if (!listed.has(tool.name)) listed.set(tool.name, tool);
    }
    if (wanted && [...wanted].every((name) => listed.has(name))) {
      return sortByName([...wanted].map((name) => listed.get(name)!));
    }
    cursor = page.nextCursor;
    const reachedLimit = listed.size >= maxItems;
    if (reachedLimit || !cursor || !autoPaginate) {
      if (wanted) throw notFound(wanted, listed, reachedLimit ? 'max-items' : 'exhausted', maxItems);
      return sortByName([...listed.values()]);
    }
    if (seenCursors.has(cursor)) {
      throw new MCPProtocolError(
        'cursor_cycle',
        `The MCP server returned the tools/list cursor "${cursor}" twice; stopping to avoid an endless loop.`,
      );
    }
    seenCursors.add(cursor);
  }
}

async function listPage(client: MCPClientBase, cursor: string | undefined): Promise<MCPListToolsResult> {
  // No argument at all for the first page: the SDK sends whatever it is given as `params`, and
  // some clients (older brokers, facades) turn an explicit `undefined` into `null`.
  const page = (await (cursor === undefined ? client.listTools() : client.listTools({ cursor }))) as unknown;
  if (typeof page !== 'object' || page === null || !Array.isArray((page as MCPListToolsResult).tools)) {
    throw new MCPProtocolError('invalid_result', 'listTools() did not return { tools: [...] }.');
  }
  const { tools, nextCursor } = page as MCPListToolsResult;
  const names = new Set<string>();
  const normalized = tools.map((tool) => {
    const clean = normalizeTool(tool);
    if (names.has(clean.name)) {
      throw new MCPProtocolError('duplicate_tool', `The MCP server listed the tool "${clean.name}" twice.`);
    }
    names.add(clean.name);
    return clean;
  });
  return typeof nextCursor === 'string' && nextCursor !== ''
    ? { tools: normalized, nextCursor }
    : { tools: normalized };
}

/** Keeps the fields the adapter uses, as plain JSON (the list is cached across the fleet). */
function normalizeTool(tool: unknown): MCPTool {
  const candidate = (typeof tool === 'object' && tool !== null ? tool : {}) as Partial<MCPTool>;
  if (typeof candidate.name !== 'string' || candidate.name === '') {
    throw new MCPProtocolError(
      'invalid_tool',
      `The MCP server listed a tool without a name: ${JSON.stringify(tool)}.`,
    );
  }
  const schema = candidate.inputSchema;
  const normalized: MCPTool = {
    name: candidate.name,
    inputSchema:
      typeof schema === 'object' && schema !== null
        ? JSON.parse(JSON.stringify(schema))
        : { type: 'object', properties: {} },
  };
  if (typeof candidate.title === 'string') normalized.title = candidate.title;
  if (typeof candidate.description === 'string') normalized.description = candidate.description;
  if (typeof candidate.annotations === 'object' && candidate.annotations !== null) {
    normalized.annotations = JSON.parse(JSON.stringify(candidate.annotations));
  }
  return normalized;
}

function notFound(
  wanted: Set<string>,
  listed: Map<string, MCPTool>,
  reason: 'max-items' | 'exhausted',
  maxItems: number,
): MCPToolsNotFoundError {
  return new MCPToolsNotFoundError({
    missing: [...wanted].filter((name) => !listed.has(name)).sort(),
    found: [...listed.keys()].sort(),
    reason,
    maxItems,
  });
}

function sortByName(tools: MCPTool[]): MCPTool[] {
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
