import { emptyObjectSchema } from '../shared/empty-object-schema.js';
import type { ToolDefinition } from '../types/tool-definition.js';
import type { ResponsesFunctionTool } from './openai-responses-wire.js';

/**
 * Converts tool definitions to Responses API function tools
 * (`{ type: 'function', name, description, parameters, strict: false }`). `strict` is sent as
 * `false` because the Responses API otherwise applies strict mode, which rejects schemas that
 * are not closed (`additionalProperties: false`, every property required). `tags` are never sent.
 */
export function toResponsesTools(tools: ToolDefinition[]): ResponsesFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    parameters: tool.parameters ?? emptyObjectSchema(),
    strict: false,
  }));
}
