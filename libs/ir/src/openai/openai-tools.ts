import { emptyObjectSchema } from '../shared/empty-object-schema.js';
import type { ToolDefinition } from '../types/tool-definition.js';
import { allowsOpenAIStrict } from './openai-strict-schema.js';
import type { OpenAIFunctionTool } from './openai-wire.js';

/**
 * Converts tool definitions to Chat Completions tools
 * (`{ type: 'function', function: { name, description, parameters, strict? } }`). The JSON
 * Schema is sent as written; `strict: true` is added only when every construct of it allows
 * strict mode ({@link allowsOpenAIStrict}), else `strict` is left out (the API's non-strict
 * default). `tags` are ours and never sent; a tool without `parameters` gets an empty object schema.
 */
export function toOpenAITools(tools: ToolDefinition[]): OpenAIFunctionTool[] {
  return tools.map((tool) => {
    const parameters = tool.parameters ?? emptyObjectSchema();
    return {
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters,
        ...(allowsOpenAIStrict(parameters) ? { strict: true } : {}),
      },
    };
  });
}
