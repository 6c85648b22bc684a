import { emptyObjectSchema } from '../shared/empty-object-schema.js';
import type { ToolDefinition } from '../types/tool-definition.js';
import type { OpenAIFunctionTool } from './openai-wire.js';

/**
 * Converts tool definitions to Chat Completions tools
 * (`{ type: 'function', function: { name, description, parameters } }`). `tags` are ours and
 * never sent; a tool without `parameters` gets an empty object schema.
 */
export function toOpenAITools(tools: ToolDefinition[]): OpenAIFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.parameters ?? emptyObjectSchema(),
    },
  }));
}
