/**
 * One tool call of a batch, end to end (spec §7.3): find the tool, parse and validate the
 * arguments, run the middleware onion around the durable handler, check the output is JSON and
 * turn it into a {@link ToolOutput}. Failures never throw (except cancellation): they become a
 * JSON error the model can read and recover from.
 */

import type { ToolCall } from '@flotilla/ir';
import { errorGuard, FlotillaError } from '@flotilla/ir';
import { type AgentContext, linkSignal } from '../context/agent-context.js';
import { executeToolDurably } from '../engine/tool-execution.js';
import { InvalidToolOutputError, ToolTimeoutError } from '../errors/policy-errors.js';
import { AbortError, AttemptSupersededError, NonDeterminismError } from '../errors/run-errors.js';
import { serializeError } from '../errors/serialize-error.js';
import { ToolCallRejectedError } from '../errors/wait-errors.js';
import { DEFAULT_JSON_LIMITS, inspectJson, type JsonLimits, jsonBoundsError } from '../json/json-bounds.js';
import { setLongTimer } from '../shared/long-timer.js';
import { contentPartProblem } from '../tools/content-parts-to-ir.js';
import type { EquippedTool } from '../tools/equipped-tool.js';
import type { ToolOutput } from '../tools/tool-call-loop-middleware.js';
import { toolContentParts } from '../tools/tool-content.js';
import type { ToolContext, ToolRunContext } from '../tools/tool-definition.js';
import { checkToolArguments } from '../tools/tool-parameters.js';
import { awaitApproval } from '../waits/await-approval.js';

/** The output of one call and whether the tool succeeded. */
export interface ToolCallResult {
  output: ToolOutput;
  ok: boolean;
}

/** A failure the model sees as the tool's result. */
class ToolCallFailure extends FlotillaError {
  static override readonly errorName = 'ToolCallFailure';
  static override readonly is = errorGuard(this);
}

/**
 * Runs `call` against `tools`; `position` is its journal position (taken in call order before
 * the batch starts, so parallel scheduling cannot change it).
 * @throws AbortError and NonDeterminismError only; every other failure is returned as an error output
 */
export function executeToolCall(
  context: AgentContext,
  tools: ReadonlyMap<string, EquippedTool>,
  call: ToolCall,
  position: string,
): Promise<ToolCallResult> {
  // Not async: the chain's promise and one `.then` (an approval alone awaits more).
  const name = call.function.name;
  const event = { callPath: context.callPath, name, toolCallId: call.id };
  let replayed = false;
  const failed = (error: unknown): ToolCallResult => {
    // Engine failures are not the tool's: they end the run instead of going back to the model.
    if (AbortError.is(error) || NonDeterminismError.is(error) || AttemptSupersededError.is(error))
      throw error;
    context.run.emit({ type: 'tool-result', ...event, ok: false, error: serializeError(error), replayed });
    context.run.services.logger?.warn({ err: error, tool: name }, 'tool call failed');
    return { output: { callId: call.id, content: errorContent(name, error) }, ok: false };
  };
  try {
    context.run.emit({ type: 'tool-call', ...event, args: readableArgs(call.function.arguments) });
  } catch (error) {
    return Promise.reject(error);
  }
  let result: Promise<unknown>;
  try {
    const tool = findTool(tools, name);
    const parsed = parseArguments(tool, call);
    const onReplay = (fromJournal: boolean) => {
      replayed = fromJournal;
    };
    // Most tools need no approval: no async call (and its promises) for them.
    result = needsApproval(tool, parsed)
      ? approvedArguments(context, tool, call, parsed, position).then((args) =>
          runChain(context, tool, call, args, position, onReplay),
        )
      : runChain(context, tool, call, parsed, position, onReplay);
  } catch (error) {
    try {
      return Promise.resolve(failed(error));
    } catch (engineError) {
      return Promise.reject(engineError);
    }
  }
  return result.then((value) => {
    try {
      // A live result no middleware saw is the JSON image of the output the step checked: once is enough.
      if (replayed || tools.get(name)?.middlewares.length !== 0)
        assertToolOutput(name, value, limitsOf(context));
      context.run.emit({ type: 'tool-result', ...event, ok: true, result: value, replayed });
      return { output: { callId: call.id, content: serializeResult(value) }, ok: true };
    } catch (error) {
      return failed(error);
    }
  }, failed);
}

function findTool(tools: ReadonlyMap<string, EquippedTool>, name: string): EquippedTool {
  const tool = tools.get(name);
  if (tool) return tool;
  const available = [...tools.keys()].join(', ') || '(none)';
  throw new ToolCallFailure(`Tool "${name}" not found. Available tools: ${available}`);
}

/**
 * The arguments the handler runs with: the model's, or, for a tool that needs approval, the
 * ones a person approved (edited ones are checked against the schema like the model's).
 * @throws ToolCallRejectedError when the person rejected the call (the model sees it, with the reason)
 */
async function approvedArguments(
  context: AgentContext,
  tool: EquippedTool,
  call: ToolCall,
  args: unknown,
  position: string,
): Promise<unknown> {
  const toolName = tool.definition.name;
  const answer = await awaitApproval(context, { toolName, callId: call.id, args, position });
  if (!answer.approved) throw new ToolCallRejectedError(toolName, answer.reason);
  return answer.args === undefined ? args : validArguments(tool, answer.args);
}

function needsApproval(tool: EquippedTool, args: unknown): boolean {
  const { needsApproval: rule } = tool;
  if (typeof rule !== 'function') return rule === true;
  try {
    return rule(args) === true;
  } catch (error) {
    throw new ToolCallFailure(
      `Tool "${tool.definition.name}" execution failed: its needsApproval check threw: ${describeError(error)}`,
    );
  }
}

function parseArguments(tool: EquippedTool, call: ToolCall): unknown {
  const name = tool.definition.name;
  const text = call.function.arguments.trim() === '' ? '{}' : call.function.arguments;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ToolCallFailure(`Invalid JSON arguments for tool "${name}": ${(error as Error).message}`);
  }
  return validArguments(tool, json);
}

/** Checks arguments (the model's, or a person's edit) against the tool's zod or JSON Schema parameters. */
function validArguments(tool: EquippedTool, json: unknown): unknown {
  const name = tool.definition.name;
  const checked = checkToolArguments(tool.definition.parameters, json);
  if (checked.success) return checked.data;
  const issues = checked.issues.map((issue) => `${issue.path}: ${issue.message}`);
  throw new ToolCallFailure(
    `Tool "${name}" execution failed: Invalid arguments for tool "${name}": ${issues.join('; ')}`,
  );
}

/**
 * Runs a tool's middleware onion around its durable handler (shared with `callTool`). Not
 * async: without middlewares, the durable step's promise and two `.then`s.
 */
export function runChain(
  context: AgentContext,
  tool: EquippedTool,
  call: ToolCall,
  args: unknown,
  position: string,
  onReplay: (replayed: boolean) => void,
): Promise<unknown> {
  const { definition } = tool;
  // The tool's own signal: aborted with the agent's, or alone when the call times out. Made
  // when first asked for (most handlers never read it): an AbortController, its signal and a
  // listener on the agent's cost a tool call more than its promises.
  let toolController: AbortController | undefined;
  let unlink: (() => void) | undefined;
  let ended = false;
  const controller = (): AbortController => {
    if (toolController === undefined) {
      toolController = new AbortController();
      // Read after the call ended (a handler that kept its context): no listener left behind.
      if (ended) {
        if (context.signal.aborted) toolController.abort(context.signal.reason);
      } else unlink = linkSignal(context.signal, toolController);
    }
    return toolController;
  };
  // The same own, enumerable `signal` getter a literal `get signal()` gives, in the same key order,
  // but defined on a built object: V8 makes a literal with a getter a slow dictionary object
  // (~2 µs to build, slow to read), once per tool call.
  const runContext = { idempotencyKey: `${context.run.runId}:${call.id}` } as ToolRunContext;
  Object.defineProperty(runContext, 'signal', {
    get: () => controller().signal,
    enumerable: true,
    configurable: true,
  });
  runContext.toolCallId = call.id;
  runContext.agentId = context.agentId;
  const handler = (): Promise<unknown> => {
    try {
      return handleDurably();
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const handleDurably = (): Promise<unknown> =>
    executeToolDurably(context, {
      position,
      toolName: definition.name,
      args,
      execute: () => {
        const run = (): Promise<unknown> => {
          try {
            // `Promise.resolve` of a native promise is that promise: no wrapper for an async handler.
            return Promise.resolve(definition.handler(args, runContext));
          } catch (error) {
            return Promise.reject(error);
          }
        };
        return withTimeout(definition.name, tool.timeoutMs, controller, run).then((value) => {
          // Checked here so an invalid output is journaled as the tool's error.
          assertToolOutput(definition.name, value, limitsOf(context));
          return value;
        });
      },
    }).then(({ value, replayed }) => {
      onReplay(replayed);
      return value;
    });
  const end = () => {
    ended = true;
    unlink?.();
  };
  // Middlewares run outside the journal (spec §7.2): on replay they run again around the recorded result.
  const chain =
    tool.middlewares.length === 0
      ? handler
      : middlewareChain(toolContextOf(context, tool, call, args), tool, handler);
  let chained: Promise<unknown>;
  try {
    chained = chain();
  } catch (error) {
    chained = Promise.reject(error);
  }
  return chained.then(
    (value) => {
      end();
      return value;
    },
    (error: unknown) => {
      end();
      throw error;
    },
  );
}

/** The handler inside the tool's middlewares (outermost first). */
function middlewareChain(
  toolContext: ToolContext,
  tool: EquippedTool,
  handler: () => Promise<unknown>,
): () => Promise<unknown> {
  return tool.middlewares.reduceRight<() => Promise<unknown>>(
    (next, middleware) => () => middleware.handler(toolContext, next),
    handler,
  );
}

/** What a tool's middlewares see of the call (built only for a tool that has middlewares). */
function toolContextOf(
  context: AgentContext,
  tool: EquippedTool,
  call: ToolCall,
  args: unknown,
): ToolContext {
  const { definition } = tool;
  return {
    toolName: definition.name,
    input: args,
    description: definition.description,
    parameters: tool.ir.parameters ?? {},
    definition,
    metadata: {
      agentId: context.agentId,
      callPath: context.callPath,
      toolCallId: call.id,
      runId: context.run.runId,
    },
  };
}

/**
 * Runs the handler, or fails with {@link ToolTimeoutError} after `timeoutMs` (aborting the
 * tool's signal); a late result is ignored.
 */
function withTimeout(
  toolName: string,
  timeoutMs: number | undefined,
  controller: () => AbortController,
  run: () => Promise<unknown>,
): Promise<unknown> {
  // Without a timeout, the handler's own promise (not an async wrapper adopting it).
  if (timeoutMs === undefined) return run();
  return raceTimeout(toolName, timeoutMs, controller, run);
}

async function raceTimeout(
  toolName: string,
  timeoutMs: number,
  controller: () => AbortController,
  run: () => Promise<unknown>,
): Promise<unknown> {
  let timer: { clear(): void } | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setLongTimer(() => {
      const error = new ToolTimeoutError(toolName, timeoutMs);
      controller().abort(error);
      reject(error);
    }, timeoutMs);
  });
  const handled = run();
  handled.catch(() => {}); // a late failure of an abandoned call is nobody's to handle
  try {
    return await Promise.race([handled, expired]);
  } finally {
    timer?.clear();
  }
}

/**
 * Tool output is an outside value: JSON, and within the run's bounds. A failure is the tool's
 * error, which the model sees (and which is journaled like any tool error).
 */
export function assertToolOutput(toolName: string, result: unknown, limits: JsonLimits): void {
  if (result === undefined) throw new InvalidToolOutputError(toolName, '(root)', 'undefined');
  const { problem } = inspectJson(result, limits);
  if (problem?.kind === 'not-json') throw new InvalidToolOutputError(toolName, problem.path, problem.reason);
  if (problem) throw jsonBoundsError(problem, `the output of tool "${toolName}"`, limits);
  const parts = toolContentParts(result);
  if (parts) {
    const bad = contentPartProblem(parts);
    if (bad) throw new InvalidToolOutputError(toolName, bad.path, bad.reason);
  }
}

function limitsOf(context: AgentContext): JsonLimits {
  return context.run.services.limits ?? DEFAULT_JSON_LIMITS;
}

function serializeResult(result: unknown): ToolOutput['content'] {
  if (typeof result === 'string') return result;
  return toolContentParts(result) ?? JSON.stringify(result);
}

function errorContent(toolName: string, error: unknown): string {
  if (ToolCallRejectedError.is(error)) return JSON.stringify({ rejected: true, message: error.message });
  const message =
    error instanceof ToolCallFailure
      ? error.message
      : `Tool "${toolName}" execution failed: ${describeError(error)}`;
  return JSON.stringify({ error: true, message });
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
}

function readableArgs(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}
