import type { ToolDefinition, ToolRunContext } from '@flotilla/runtime';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { z } from 'zod';
import { jsonSchemaToZod } from '../mcp/json-schema-to-zod.js';
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
 * Turns a LangChain tool into a Flotilla {@link ToolDefinition}. Its schema (zod 3, zod 4 or
 * JSON Schema) goes through JSON Schema into the runtime's zod 4 (so two zod copies never
 * meet); LangChain still validates with its own schema when the tool is invoked. The handler
 * invokes the tool with the run's abort signal; plain results pass through unchanged, image
 * content blocks become image parts ({@link langChainResultToToolResult}).
 *
 * @throws {TypeError} when the tool has no name, description or `invoke()`.
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
    parameters: parametersOf(tool.schema),
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

function parametersOf(schema: unknown): z.ZodType {
  if (schema === undefined || schema === null) return z.looseObject({});
  const { $schema: _ignored, ...jsonSchema } = toJsonSchema(
    schema as Parameters<typeof toJsonSchema>[0],
  ) as Record<string, unknown>;
  return jsonSchemaToZod(jsonSchema);
}
