import type { ContentPart } from '@flotilla/runtime';
import type { MCPClientBase, MCPPrompt, MCPPromptMessage } from './mcp-client-adapter.js';
import { mcpContentToParts } from './mcp-content-to-parts.js';
import { MCPProtocolError } from './mcp-errors.js';

/** What `equipInstruction` accepts: plain text or content parts. */
export type MCPInstructionContent = string | ContentPart[];

/** A prompt fetched with {@link MCPPromptsKit.get}. */
export interface MCPPromptResult {
  description?: string;
  messages: MCPPromptMessage[];
  /**
   * Every message's content flattened into one instruction, ready for `equipInstruction`: a
   * plain string when it is all text, content parts when it holds images; `''` when empty.
   */
  asInstruction(): MCPInstructionContent;
}

/** The prompt side of an MCP kit. */
export interface MCPPromptsKit {
  /**
   * Every prompt of the server (following `nextCursor`).
   * @throws {MCPProtocolError} when the client has no `listPrompts()`.
   */
  list(): Promise<MCPPrompt[]>;
  /**
   * Fetches a prompt with its arguments (`getPrompt({ name, arguments })`, as the SDK Client takes it).
   * @throws {MCPProtocolError} when the client has no `getPrompt()` or the answer has no `messages`.
   */
  get(name: string, args?: Record<string, string>): Promise<MCPPromptResult>;
}

/** Prompts of `client`. */
export function createPromptsKit(client: MCPClientBase): MCPPromptsKit {
  return {
    async list() {
      if (!client.listPrompts) throw missingMethod('listPrompts');
      const prompts: MCPPrompt[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await client.listPrompts(cursor ? { cursor } : undefined);
        prompts.push(...page.prompts);
        cursor = page.nextCursor;
        if (cursor && seen.has(cursor)) break;
        if (cursor) seen.add(cursor);
      } while (cursor);
      return prompts;
    },
    async get(name, args) {
      if (!client.getPrompt) throw missingMethod('getPrompt');
      const result = await client.getPrompt(args ? { name, arguments: args } : { name });
      if (!Array.isArray(result?.messages)) {
        throw new MCPProtocolError('invalid_result', `getPrompt("${name}") returned no messages array.`);
      }
      return {
        ...(result.description === undefined ? {} : { description: result.description }),
        messages: result.messages,
        asInstruction: () => toInstruction(result.messages),
      };
    },
  };
}

function toInstruction(messages: readonly MCPPromptMessage[]): MCPInstructionContent {
  const parts = mcpContentToParts(messages.map((message) => message.content));
  if (parts.every((part) => part.type === 'text')) {
    return parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  }
  return parts;
}

function missingMethod(method: string): MCPProtocolError {
  return new MCPProtocolError(
    'missing_method',
    `The MCP client has no ${method}(); prompts need a client with prompts support.`,
  );
}
