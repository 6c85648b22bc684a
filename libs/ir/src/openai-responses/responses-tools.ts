import { allowsOpenAIStrict } from '../openai/openai-strict-schema.js';
import { emptyObjectSchema } from '../shared/empty-object-schema.js';
import type { ToolDefinition } from '../types/tool-definition.js';
import type { ResponsesFunctionTool } from './openai-responses-wire.js';

/**
 * Converts tool definitions to Responses API function tools
 * (`{ type: 'function', name, description, parameters, strict }`). The JSON Schema is sent as
 * written; `strict` is always sent, because the Responses API otherwise applies strict mode and
 * rejects schemas outside its subset: `true` only when every construct allows it
 * ({@link allowsOpenAIStrict}), else `false`. `tags` are never sent.
 */
export function toResponsesTools(tools: ToolDefinition[]): ResponsesFunctionTool[] {
  return tools.map((tool) => {
    const parameters = tool.parameters ?? emptyObjectSchema();
    return {
      type: 'function',
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters,
      strict: allowsOpenAIStrict(parameters),
    };
  });
}
