/**
 * What a tool is: a name, a description, its parameters (a zod v4 schema or a JSON Schema
 * wrapped with `jsonSchema(…)`) and a handler returning JSON (or `toolContent(...)`), optionally
 * wrapped by {@link ToolMiddleware}s.
 */
import type { ToolArguments, ToolParameters } from './tool-parameters.js';

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
  /** The validated input (zod-parsed, or as the model sent it for a JSON Schema); the handler receives this same object. */
  input: unknown;
  description: string;
  /** The input schema as JSON Schema, as the model is shown it before any provider adaptation. */
  parameters: Record<string, unknown>;
  /** The tool being called, as it was equipped (read-only). */
  readonly definition: ToolDefinition;
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
export interface ToolDefinition<Schema extends ToolParameters = ToolParameters> {
  /** Unique within a generation. */
  name: string;
  description: string;
  /**
   * A zod v4 schema (sent to the model as JSON Schema, parses the model's arguments) or a JSON
   * Schema wrapped with `jsonSchema(…)` (sent as written, adapted only where a provider requires;
   * the arguments are validated against it with ajv).
   */
  parameters: Schema;
  /** Returns JSON (string, number, boolean, null, object, array) or `toolContent(...)`. */
  handler: (args: ToolArguments<Schema>, context: ToolRunContext) => Promise<unknown> | unknown;
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
  needsApproval?: NeedsApproval<ToolArguments<Schema>>;
}

/** Whether a tool call needs a person's approval: always, or decided from its arguments. */
export type NeedsApproval<Args = unknown> = boolean | ((args: Args) => boolean);

/**
 * Defines a tool with its argument type inferred from the schema (an identity function that
 * helps TypeScript).
 */
export function defineTool<Schema extends ToolParameters>(
  tool: ToolDefinition<Schema>,
): ToolDefinition<Schema> {
  return tool;
}

/** A copy of `tool` with `middlewares` appended to its static middlewares. */
export function augmentTool<Schema extends ToolParameters>(
  tool: ToolDefinition<Schema>,
  middlewares: ToolMiddleware[],
): ToolDefinition<Schema> {
  return { ...tool, middlewares: [...(tool.middlewares ?? []), ...middlewares] };
}
