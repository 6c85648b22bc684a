import { z } from 'zod';
import {
  DuplicateToolNameError,
  InvalidToolDefinitionError,
  SchemaConversionError,
} from '../errors/agent-errors.js';
import type { EquippedTool } from '../tools/equipped-tool.js';
import type { NeedsApproval, ToolDefinition, ToolMiddleware } from '../tools/tool-definition.js';
import { requireOpenDraft } from './require-draft.js';

/** Options of {@link equipTool}. */
export interface EquipToolOptions {
  /** Dynamic middlewares: they wrap the tool's own (static) middlewares. @default [] */
  middleware?: ToolMiddleware[];
  /** The handler's time limit, over the tool's own `timeoutMs` (see `ToolDefinition.timeoutMs`). @default the tool's */
  timeoutMs?: number;
  /**
   * Whether a call needs a person's approval, over the tool's own `needsApproval` (see
   * `ToolDefinition.needsApproval`). @default the tool's
   */
  needsApproval?: NeedsApproval;
}

/**
 * Gives the model a tool for this generation. The zod schema is sent as JSON Schema.
 * @throws InvalidToolDefinitionError when the tool has no name, no zod `parameters` or no `handler`
 * @throws DuplicateToolNameError when a tool of that name is already equipped in this generation
 * @throws SchemaConversionError when the schema has no JSON Schema form
 * @throws ContextNotFoundError outside an agent run; AfterPromptAgentError after the policy started
 */
export function equipTool<S extends z.ZodType>(
  tool: ToolDefinition<S>,
  options: EquipToolOptions = {},
): void {
  const context = requireOpenDraft('equipTool');
  assertToolDefinition(tool, 'equipTool');
  if (context.draft.tools.has(tool.name)) throw new DuplicateToolNameError(tool.name, 'equipTool');
  const equipped = equippedTool(tool, options.middleware ?? []);
  const timeoutMs = options.timeoutMs ?? tool.timeoutMs;
  if (timeoutMs !== undefined) equipped.timeoutMs = assertTimeout(tool.name, timeoutMs);
  const needsApproval = options.needsApproval ?? (tool.needsApproval as NeedsApproval | undefined);
  if (needsApproval !== undefined) equipped.needsApproval = assertNeedsApproval(tool.name, needsApproval);
  context.draft.tools.set(tool.name, equipped);
}

/**
 * Checks what TypeScript cannot when a tool comes from untyped code or another library's shape.
 * @throws InvalidToolDefinitionError naming the tool and the missing field
 */
export function assertToolDefinition(tool: ToolDefinition<z.ZodType>, site: string): void {
  const { name, parameters, handler } = tool as Partial<Record<keyof ToolDefinition, unknown>>;
  const toolName = typeof name === 'string' && name !== '' ? name : '<unnamed>';
  if (toolName === '<unnamed>') throw new InvalidToolDefinitionError(toolName, 'name', site);
  if (!isZodSchema(parameters)) throw new InvalidToolDefinitionError(toolName, 'parameters', site);
  if (typeof handler !== 'function') throw new InvalidToolDefinitionError(toolName, 'handler', site);
}

function assertNeedsApproval(toolName: string, needsApproval: unknown): NeedsApproval {
  if (typeof needsApproval === 'boolean' || typeof needsApproval === 'function')
    return needsApproval as NeedsApproval;
  throw new InvalidToolDefinitionError(toolName, 'needsApproval', 'equipTool');
}

function assertTimeout(toolName: string, timeoutMs: number): number {
  if (Number.isInteger(timeoutMs) && timeoutMs >= 1) return timeoutMs;
  throw new InvalidToolDefinitionError(toolName, 'timeoutMs', 'equipTool');
}

/** Zod v4 schemas (classic and mini) carry their internals under `_zod`. */
function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** The equipped form of `tool` with `dynamic` middlewares outside its own. */
export function equippedTool<S extends z.ZodType>(
  tool: ToolDefinition<S>,
  dynamic: ToolMiddleware[],
): EquippedTool {
  return {
    // The loop validates arguments with the schema before calling the handler, so erasing the type is safe.
    definition: tool as unknown as ToolDefinition,
    middlewares: [...dynamic, ...(tool.middlewares ?? [])],
    ir: { name: tool.name, description: tool.description, parameters: toolParameters(tool) },
  };
}

/**
 * The JSON Schema of a zod schema, without the `$schema` marker providers do not want.
 * @throws SchemaConversionError naming `site` when the schema cannot be converted
 */
export function zodToJsonSchema(schema: z.ZodType, site: string): Record<string, unknown> {
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = z.toJSONSchema(schema) as Record<string, unknown>;
  } catch (error) {
    throw new SchemaConversionError(site, error);
  }
  const { $schema: _ignored, ...rest } = jsonSchema;
  return rest;
}

function toolParameters(tool: ToolDefinition<z.ZodType>): Record<string, unknown> {
  return zodToJsonSchema(tool.parameters, `tool "${tool.name}"`);
}
