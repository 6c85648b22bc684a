/**
 * Test support for the IR suites (kept out of the package build): a function tool call in the
 * IR's OpenAI-shaped form, so each suite states only the id, name and arguments that matter to it.
 */
import type { ToolCall } from '../types/message.js';

/** A `type: 'function'` tool call `id` to `name` with the JSON `args` string. @default args `'{}'` */
export function toolCall(id: string, name: string, args = '{}'): ToolCall {
  return { id, type: 'function', function: { name, arguments: args } };
}
