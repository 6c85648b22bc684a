/**
 * Tool-call-loop middleware: sees each batch of tool calls the model makes inside a policy
 * loop before any tool runs; may filter the calls passed inward and must answer every call.
 */
import type { Message, ToolCall } from '@flotilla/ir';
import type { ContentPart } from './tool-content.js';

/** The answer to one tool call: text or content parts. */
export interface ToolOutput {
  callId: string;
  content: string | ContentPart[];
}

/**
 * A tool call as loop middlewares see it: the IR's nested `function: { name, arguments }` and,
 * for code written against the seed API, the same values flat (`name`, `arguments`). A middleware
 * may pass inward calls of either shape (or new ones it builds).
 */
export type LoopToolCall = ToolCall & { name: string; arguments: string };

/** One completed earlier round of the loop. */
export interface ToolTurn {
  entries: { callId: string; toolName: string; arguments: string }[];
}

/** What a loop middleware sees. */
export interface ToolCallLoopContext {
  /** The loop step, counting from 1 (the first batch of tool calls is step 1), as in the seed. */
  step: number;
  /** The conversation so far (read-only). */
  messages: readonly Message[];
  /** Earlier rounds of this loop. */
  toolTurns: ToolTurn[];
  /** The model's calls of this batch, whatever outer middlewares passed inward. */
  originalCalls: LoopToolCall[];
  /** The system prompts' text joined by a blank line, or `null` without any. */
  systemInstruction: string | null;
  /** The instructions' text joined by a blank line, or `null` without any. */
  instruction: string | null;
}

/** The seed API's flat tool call, accepted from a middleware's `next(calls)`. */
export interface SeedToolCall {
  id: string;
  name: string;
  arguments: string;
  extra?: Record<string, unknown>;
}

/** Wraps each tool batch of the loop (earlier registration = outer). */
export interface ToolCallLoopMiddleware {
  name: string;
  handler(
    context: ToolCallLoopContext,
    calls: LoopToolCall[],
    next: (calls: (ToolCall | LoopToolCall | SeedToolCall)[]) => Promise<ToolOutput[]>,
  ): Promise<ToolOutput[]>;
  config?: Record<string, unknown>;
}
