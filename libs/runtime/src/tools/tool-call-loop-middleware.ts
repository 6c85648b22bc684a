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

/** One completed earlier round of the loop. */
export interface ToolTurn {
  entries: { callId: string; toolName: string; arguments: string }[];
}

/** What a loop middleware sees. */
export interface ToolCallLoopContext {
  /** The loop step (0-based). */
  step: number;
  /** The conversation so far (read-only). */
  messages: readonly Message[];
  /** Earlier rounds of this loop. */
  toolTurns: ToolTurn[];
  /** The model's calls of this batch, whatever outer middlewares passed inward. */
  originalCalls: ToolCall[];
}

/** Wraps each tool batch of the loop (earlier registration = outer). */
export interface ToolCallLoopMiddleware {
  name: string;
  handler(
    context: ToolCallLoopContext,
    calls: ToolCall[],
    next: (calls: ToolCall[]) => Promise<ToolOutput[]>,
  ): Promise<ToolOutput[]>;
  config?: Record<string, unknown>;
}
