import { equipFleetMemo, equipTool, type ToolDefinition, type ToolMiddleware } from '@flotilla/runtime';
import { fromMCPTool } from './from-mcp-tool.js';
import { DEFAULT_MAX_TOOLS, listMCPTools } from './list-tools.js';
import type { MCPClientLike } from './mcp-client-adapter.js';
import { createPromptsKit, type MCPPromptsKit } from './mcp-prompts.js';
import { createResourceTools } from './resource-tools.js';

/** Options of {@link equipMCP}. */
export interface EquipMCPOptions {
  /**
   * Names this client in caches: with the server's identity (`getServerVersion()`) and the
   * listing options, it keys the `tools/list` cache of the agent invocation and of the fleet.
   */
  clientId: string;
  /**
   * Prefix of the names the model sees (`<namespace>_<native name>`), so two servers with a
   * `read_file` do not collide. `tools` and the calls to the server always use native names.
   * @default none: the model sees native names
   */
  namespace?: string;
  /**
   * Native names of the tools to keep; if any is not found within the pages read and
   * `maxItems`, `equipMCP` throws {@link MCPToolsNotFoundError}. `[]` keeps none (no request).
   * @default every tool, up to `maxItems`
   */
  tools?: string[];
  /**
   * List again instead of using the cache, and write the new list to the cache of this agent
   * invocation and of the fleet (advancing the fleet epoch, so every worker sees it).
   * @default false
   */
  forceRefresh?: boolean;
  /** Follow `nextCursor` through every page of `tools/list`. @default true */
  autoPaginate?: boolean;
  /** The most tools to read from the server. @default 100 */
  maxItems?: number;
  /** Build the `list_resources` / `read_resource` tools in {@link MCPKit.resourceTools}. @default false */
  enableResources?: boolean;
  /** Middlewares wrapping every MCP tool when injected (unless `inject` passes its own). @default [] */
  middleware?: ToolMiddleware[];
}

/** Options of {@link MCPKit.inject}. */
export interface MCPInjectOptions {
  /** Equip the server's tools. @default true */
  injectTools?: boolean;
  /** Equip the resource tools (needs `enableResources`). @default false: they add URIs to every prompt */
  injectResourceTools?: boolean;
  /** Middlewares for the injected tools; replaces (not extends) `EquipMCPOptions.middleware`. */
  middleware?: ToolMiddleware[];
}

/** What {@link equipMCP} returns. */
export interface MCPKit {
  client: MCPClientLike;
  /** The server's tools as Flotilla tools, sorted by native name; a snapshot that never changes. */
  tools: readonly ToolDefinition[];
  /** `list_resources` and `read_resource` when `enableResources`, else empty. */
  resourceTools: readonly ToolDefinition[];
  /** {@link tools} by the name the model sees. */
  toolMap: Readonly<Record<string, ToolDefinition>>;
  /** {@link resourceTools} by the name the model sees. */
  resourceToolMap: Readonly<Record<string, ToolDefinition>>;
  prompts: MCPPromptsKit;
  /**
   * Equips the kit's tools for the current generation (call it again after `reborn()`).
   * @throws AfterPromptAgentError after the generation's policy started
   * @throws DuplicateToolNameError when a name is taken (two servers without namespaces)
   */
  inject(options?: MCPInjectOptions): void;
}

/**
 * Brings an already connected MCP client's tools into the current agent. The adapter never
 * connects or closes the client: create it with `equipResource('mcp:<name>', …)`.
 *
 * The tool list is cached at two levels: inside this agent invocation (reborn and crash replay
 * do not list again) and, on a worker with Redis, across the fleet (N agents on M workers list
 * once), keyed by `clientId`, the server's name and version, and the listing options.
 *
 * @throws {MCPToolsNotFoundError} when declared `tools` are missing
 * @throws {MCPProtocolError} when the server's `tools/list` breaks the protocol
 * @throws ContextNotFoundError outside an agent run
 */
export async function equipMCP(client: MCPClientLike, options: EquipMCPOptions): Promise<MCPKit> {
  if (!options.clientId)
    throw new TypeError('equipMCP needs a non-empty clientId to key its tools/list cache.');
  const autoPaginate = options.autoPaginate ?? true;
  const maxItems = options.maxItems ?? DEFAULT_MAX_TOOLS;
  const declared = options.tools ? [...new Set(options.tools)].sort() : null;
  // Awaited: a broker proxy (the client lives on another worker) answers with a promise, and the
  // key must name the same server as a direct client does.
  const server = await client.getServerVersion?.();
  const listed = await equipFleetMemo(
    `mcp-tools:${options.clientId}`,
    () => listMCPTools(client, { autoPaginate, maxItems, ...(declared ? { tools: declared } : {}) }),
    [options.clientId, server?.name ?? null, server?.version ?? null, autoPaginate, maxItems, declared],
    { forceRefresh: options.forceRefresh ?? false },
  );

  const namespaced = (name: string) => (options.namespace ? `${options.namespace}_${name}` : name);
  const tools = Object.freeze(
    listed.map((tool) => fromMCPTool(tool, client, { name: namespaced(tool.name) })),
  );
  const resourceTools = Object.freeze(
    options.enableResources ? createResourceTools(client, options.namespace) : [],
  );
  return {
    client,
    tools,
    resourceTools,
    toolMap: byName(tools),
    resourceToolMap: byName(resourceTools),
    prompts: createPromptsKit(client),
    inject(injectOptions = {}) {
      const middleware = injectOptions.middleware ?? options.middleware ?? [];
      const injected = [
        ...((injectOptions.injectTools ?? true) ? tools : []),
        ...((injectOptions.injectResourceTools ?? false) ? resourceTools : []),
      ];
      for (const tool of injected) equipTool(tool, { middleware });
    },
  };
}

function byName(tools: readonly ToolDefinition[]): Readonly<Record<string, ToolDefinition>> {
  return Object.freeze(Object.fromEntries(tools.map((tool) => [tool.name, tool])));
}
