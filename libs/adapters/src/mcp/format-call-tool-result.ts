import { type ToolContent, toolContent } from '@flotilla/runtime';
import type { MCPCallToolResult } from './mcp-client-adapter.js';
import { mcpContentToParts } from './mcp-content-to-parts.js';
import { MCPToolError } from './mcp-errors.js';

/**
 * Turns an MCP tool result into a Flotilla tool result:
 * - `isError: true` → throws {@link MCPToolError} with the result's text, which the tool loop
 *   shows the model as the tool's error;
 * - only text blocks → the texts joined by newlines (a plain string, as before MCP);
 * - no content but `structuredContent` → that object's JSON;
 * - anything with media → `toolContent(parts)` (see {@link mcpContentToParts}), so images
 *   reach the model as images.
 *
 * @param toolName the native tool name, for the error message.
 * @throws {MCPToolError} when the result has `isError: true`.
 */
export function formatCallToolResult(toolName: string, result: MCPCallToolResult): string | ToolContent {
  const parts = mcpContentToParts(result.content);
  if (result.isError) {
    throw new MCPToolError(
      toolName,
      parts.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n'),
    );
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent);
  const texts = parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  if (texts.length === parts.length) return texts.join('\n');
  return toolContent(parts);
}
