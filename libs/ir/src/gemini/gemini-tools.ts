import type { ToolDefinition } from '../types/tool-definition.js';
import { toGeminiSchema } from './gemini-schema.js';
import type { GeminiFunctionDeclaration, GeminiTool } from './gemini-wire.js';

/**
 * Converts tool definitions to Gemini tools: one `{ functionDeclarations: [...] }` entry.
 * `parameters` is the tool's JSON Schema cleaned to Gemini's OpenAPI subset (see
 * {@link toGeminiSchema}); we use `parameters` rather than `parametersJsonSchema` because every
 * Gemini API version accepts it. A tool with no properties is declared without `parameters`
 * (Gemini rejects an object schema with empty `properties`). `tags` are never sent.
 */
export function toGeminiTools(tools: ToolDefinition[]): GeminiTool[] {
  return [{ functionDeclarations: tools.map(toDeclaration) }];
}

function toDeclaration(tool: ToolDefinition): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: tool.name };
  if (tool.description) declaration.description = tool.description;
  const parameters = tool.parameters ? toGeminiSchema(tool.parameters) : undefined;
  if (parameters?.properties) declaration.parameters = parameters;
  return declaration;
}
