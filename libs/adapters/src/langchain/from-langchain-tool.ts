import {
  dropSafeIntegerBounds,
  type JsonSchemaParameters,
  jsonSchema,
  type ToolDefinition,
  type ToolRunContext,
} from '@flotilla/runtime';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { langChainResultToToolResult } from './langchain-content-to-parts.js';
import { LangChainToolError } from './langchain-tool-error.js';

/**
 * What the adapter needs of a LangChain tool: every `@langchain/core` tool (`tool()`,
 * `DynamicStructuredTool`, `DynamicTool`, `StructuredTool` subclasses) has it.
 */
export interface LangChainToolLike {
  name: string;
  description: string;
  /** A zod schema (v3 or v4) or a JSON Schema. */
  schema?: unknown;
  invoke(input: never, config?: { signal?: AbortSignal }): Promise<unknown>;
}

/** Options of {@link fromLangChainTool}. */
export interface FromLangChainToolOptions {
  /** The name the model sees. @default the tool's name */
  name?: string;
  /** @default the tool's description */
  description?: string;
}

/**
 * Turns a LangChain tool into a Flotilla {@link ToolDefinition}. A JSON Schema is kept as
 * written; a zod schema (3 or 4) is converted to JSON Schema once, by LangChain, without the
 * safe-integer bounds zod adds to every integer. Either way the model is shown that JSON Schema
 * and its arguments are validated against it (`jsonSchema(…)`), so two zod copies never meet;
 * LangChain still validates with its own schema when the tool is invoked. The handler
 * invokes the tool with the run's abort signal; plain results pass through unchanged, image
 * content blocks become image parts ({@link langChainResultToToolResult}).
 *
 * @throws {TypeError} when the tool has no name, description or `invoke()`.
 * @throws InvalidJsonSchemaError (from `@flotilla/runtime`) when its schema cannot be used
 */
export function fromLangChainTool(
  tool: LangChainToolLike,
  options: FromLangChainToolOptions = {},
): ToolDefinition {
  if (!tool.name || typeof tool.description !== 'string' || typeof tool.invoke !== 'function') {
    throw new TypeError(
      'fromLangChainTool needs a LangChain tool with a name, a description and invoke() (any @langchain/core tool).',
    );
  }
  return {
    name: options.name ?? tool.name,
    description: options.description ?? tool.description,
    parameters: parametersOf(tool.schema, tool.name),
    // `context` is absent when user code calls the handler directly, as the seed API's tests do.
    handler: async (args, context?: ToolRunContext) => {
      let result: unknown;
      try {
        result = await tool.invoke(args as never, context?.signal ? { signal: context.signal } : {});
      } catch (error) {
        throw new LangChainToolError(tool.name, error);
      }
      return langChainResultToToolResult(result);
    },
  };
}

function parametersOf(schema: unknown, toolName: string): JsonSchemaParameters {
  const site = `LangChain tool "${toolName}"`;
  if (schema === undefined || schema === null) return jsonSchema({ type: 'object' }, site);
  if (!isZodSchema(schema)) return jsonSchema(schema as Record<string, unknown>, site);
  const converted = toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]) as Record<string, unknown>;
  return jsonSchema(dropSafeIntegerBounds(converted), site);
}

/** zod 3 keeps its internals under `_def`, zod 4 under `_zod`. */
function isZodSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && ('_zod' in schema || '_def' in schema);
}
