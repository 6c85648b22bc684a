import { emptyObjectSchema } from '../shared/empty-object-schema.js';
import type { ToolDefinition } from '../types/tool-definition.js';
import type { AnthropicTool } from './anthropic-wire.js';

/**
 * Converts tool definitions to Anthropic tools (`{ name, description, input_schema }`).
 * `input_schema` must be an object schema: a tool without `parameters` gets an empty one, and
 * a schema without `type` is given `type: 'object'`. `deferLoading: true` becomes
 * `defer_loading: true`. `tags` are ours and never sent.
 */
export function toAnthropicTools(tools: ToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: tool.parameters ? { ...tool.parameters, type: 'object' } : emptyObjectSchema(),
    ...(tool.deferLoading === true ? { defer_loading: true } : {}),
  }));
}
