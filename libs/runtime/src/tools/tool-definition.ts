/**
 * What a tool is: a name, a description, a zod v4 input schema and a handler returning JSON
 * (or `toolContent(...)`), optionally wrapped by {@link ToolMiddleware}s.
 */
import type { z } from 'zod';

/**
 * What a tool handler receives besides its arguments. `idempotencyKey` is stable across
 * replays and retries (`<runId>:<toolCallId>`): a tool that was mid-execution when a worker
 * died may run again, and can use the key to deduplicate its side effects.
 */
export interface ToolRunContext {
  idempotencyKey: string;
  /** Aborted when the run is cancelled or the agent ends. */
  signal: AbortSignal;
  toolCallId: string;
  agentId: string;
}

/** What a {@link ToolMiddleware} sees. */
export interface ToolContext {
  toolName: string;
  /** The zod-parsed input; the handler receives this same object. */
  input: unknown;
  description: string;
  /** The input schema as JSON Schema. */
  parameters: Record<string, unknown>;
  metadata: { agentId: string; callPath: string; toolCallId: string; runId: string };
}

/**
 * Wraps a tool's execution: may return early (its value is the result), transform the result,
 * or read memory and scope (it runs in the agent context).
 */
export interface ToolMiddleware {
  name: string;
  handler(context: ToolContext, next: () => Promise<unknown>): Promise<unknown>;
  config?: Record<string, unknown>;
}

/** A tool an agent can equip. */
export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  /** Unique within a generation. */
  name: string;
  description: string;
  /** A zod v4 schema; sent to the model as JSON Schema, used to validate the model's arguments. */
  parameters: Schema;
  /** Returns JSON (string, number, boolean, null, object, array) or `toolContent(...)`. */
  handler: (args: z.infer<Schema>, context: ToolRunContext) => Promise<unknown> | unknown;
  /** Static middlewares (inner: they wrap the handler, inside the equipTool middlewares). @default [] */
  middlewares?: ToolMiddleware[];
  /**
   * Longest a call of the handler may take: past it the call fails with `ToolTimeoutError`
   * (which the model sees as the tool's error), its `signal` is aborted and the handler's late
   * result is ignored. `equipTool(tool, { timeoutMs })` overrides it. @default none
   */
  timeoutMs?: number;
  /**
   * Whether a call needs a person's approval before the handler runs (`true`, or a function of
   * the validated arguments). The run then records `approval-requested`, waits holding no
   * worker slot, and goes on with `client.approve(runId, toolCallId, { approved, args?, reason? })`:
   * approved, the handler runs once (with the edited `args` when given); rejected, it never runs
   * and the model gets a result saying so, with the reason. `equipTool(tool, { needsApproval })`
   * overrides it. Only on a worker: embedded runs fail the call with `DurableWaitUnavailableError`.
   * @default false
   */
  needsApproval?: NeedsApproval<z.infer<Schema>>;
}

/** Whether a tool call needs a person's approval: always, or decided from its arguments. */
export type NeedsApproval<Args = unknown> = boolean | ((args: Args) => boolean);

/**
 * Defines a tool with its argument type inferred from the schema (an identity function that
 * helps TypeScript).
 */
export function defineTool<Schema extends z.ZodType>(tool: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return tool;
}

/** A copy of `tool` with `middlewares` appended to its static middlewares. */
export function augmentTool<Schema extends z.ZodType>(
  tool: ToolDefinition<Schema>,
  middlewares: ToolMiddleware[],
): ToolDefinition<Schema> {
  return { ...tool, middlewares: [...(tool.middlewares ?? []), ...middlewares] };
}
