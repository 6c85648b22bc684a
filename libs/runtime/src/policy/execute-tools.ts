/**
 * `executeTools`: runs one batch of tool calls (spec §7.3–§7.4). Calls run in parallel and
 * results come back in call order; loop middlewares (if any) see the batch first; every call
 * must end with an output. Journal positions are taken in call order before anything runs.
 */
import type { Message, ToolCall } from '@flotilla/ir';
import type { AgentContext } from '../context/agent-context.js';
import { LoopMissingToolOutputError } from '../errors/policy-errors.js';
import { contentPartsToIr } from '../tools/content-parts-to-ir.js';
import type { EquippedTool } from '../tools/equipped-tool.js';
import type {
  LoopToolCall,
  SeedToolCall,
  ToolCallLoopContext,
  ToolCallLoopMiddleware,
  ToolOutput,
  ToolTurn,
} from '../tools/tool-call-loop-middleware.js';
import { executeToolCall, type ToolCallResult } from './execute-tool-call.js';
import { assertUniqueToolNames } from './execute-turn.js';
import { toIrToolCalls } from './message-input.js';
import type { PromptContext } from './prompt-context.js';
import { checkPromptRuntime } from './prompt-context.js';

/** Options of {@link executeTools}. */
export interface ExecuteToolsOptions {
  runtime: PromptContext;
  /** Run the calls without the loop middlewares. @default false */
  skipLoopMiddleware?: boolean;
  /** What loop middlewares see about the loop so far (`step` counts from 1). */
  loop?: { step: number; messages: readonly Message[]; toolTurns: ToolTurn[] };
}

/**
 * Executes `toolCalls` and returns one tool message per call, in call order. Tool failures are
 * returned to the model as error messages, never thrown.
 * @throws InvalidPromptRuntimeError, DuplicateToolNameError, LoopMissingToolOutputError, AbortError
 */
export function executeTools(
  calls: (ToolCall | SeedToolCall)[],
  options: ExecuteToolsOptions,
): Promise<Message[]> {
  // Not async: without loop middlewares (the usual case) the calls' promises and one `.then`.
  try {
    return startTools(calls, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function startTools(calls: (ToolCall | SeedToolCall)[], options: ExecuteToolsOptions): Promise<Message[]> {
  const context = checkPromptRuntime('executeTools', options?.runtime);
  const toolCalls = toIrToolCalls(calls, 'executeTools');
  assertUniqueToolNames(options.runtime, 'executeTools');
  const tools = new Map<string, EquippedTool>(options.runtime.tools.map((tool) => [tool.ir.name, tool]));
  const positions = reservePositions(context, toolCalls);
  const run = (given: (ToolCall | SeedToolCall)[]): Promise<ToolOutput[]> => {
    let calls: ToolCall[];
    try {
      // Middlewares may pass inward calls they built, in either shape.
      calls = given === toolCalls ? toolCalls : toIrToolCalls(given, 'a tool-call-loop middleware');
    } catch (error) {
      return Promise.reject(error);
    }
    const started = calls.map((call) => executeToolCall(context, tools, call, positions.take(call)));
    // One call (the usual batch): its own promise, no Promise.all around it.
    if (started.length === 1)
      return (started[0] as Promise<ToolCallResult>).then((result) => [result.output]);
    return Promise.all(started).then((results) => results.map((result) => result.output));
  };
  const middlewares = options.skipLoopMiddleware ? [] : options.runtime.toolCallLoopMiddlewares;
  if (middlewares.length === 0)
    return run(toolCalls).then((outputs) =>
      toolCalls.map((call, index) => toolMessage(call, outputs[index] as ToolOutput)),
    );
  return throughMiddlewares(context, toolCalls, options, middlewares, run);
}

/** The batch through the loop middlewares (outermost first), then the calls. */
async function throughMiddlewares(
  context: AgentContext,
  toolCalls: ToolCall[],
  options: ExecuteToolsOptions,
  middlewares: readonly ToolCallLoopMiddleware[],
  run: (calls: (ToolCall | SeedToolCall)[]) => Promise<ToolOutput[]>,
): Promise<Message[]> {
  const seen = toolCalls.map(loopToolCall);
  const loopContext: ToolCallLoopContext = {
    step: options.loop?.step ?? 1,
    messages: options.loop?.messages ?? [],
    toolTurns: options.loop?.toolTurns ?? [],
    originalCalls: seen,
    systemInstruction: joinedText(options.runtime.system),
    instruction: joinedText(options.runtime.instruction),
  };
  type Next = (calls: (ToolCall | SeedToolCall)[]) => Promise<ToolOutput[]>;
  const chain = middlewares.reduceRight<Next>(
    (next, middleware) => (calls) => middleware.handler(loopContext, calls.map(loopToolCall), next),
    run,
  );
  const outputs = matchOutputs(context, toolCalls, await chain(seen));
  return toolCalls.map((call, index) => toolMessage(call, outputs[index] as ToolOutput));
}

/** The call with the seed's flat `name` / `arguments` beside the IR's nested ones. */
function loopToolCall(call: ToolCall | SeedToolCall | LoopToolCall): LoopToolCall {
  if ('function' in call && 'name' in call) return call as LoopToolCall;
  const [ir] = toIrToolCalls([call], 'a tool-call-loop middleware');
  const { name, arguments: args } = (ir as ToolCall).function;
  return { ...(ir as ToolCall), name, arguments: args };
}

function joinedText(messages: readonly Message[]): string | null {
  const text = messages.map((message) => message.content).filter((content) => content !== '');
  return text.length > 0 ? text.join('\n\n') : null;
}

/** Journal positions per call id, in call order (a repeated id gets the next sequence). */
function reservePositions(context: AgentContext, calls: ToolCall[]) {
  const byId = new Map<string, string[]>();
  for (const call of calls) {
    const list = byId.get(call.id) ?? [];
    list.push(context.nextPosition('tool', call.id));
    byId.set(call.id, list);
  }
  return {
    take: (call: ToolCall) => byId.get(call.id)?.shift() ?? context.nextPosition('tool', call.id),
  };
}

/** Outputs in call order; unknown or surplus outputs are dropped with a warning. */
function matchOutputs(context: AgentContext, calls: ToolCall[], outputs: ToolOutput[]): ToolOutput[] {
  const pending = new Map<string, ToolOutput[]>();
  for (const output of outputs) {
    const list = pending.get(output.callId) ?? [];
    list.push(output);
    pending.set(output.callId, list);
  }
  const matched: (ToolOutput | undefined)[] = calls.map((call) => pending.get(call.id)?.shift());
  const surplus = [...pending.values()].flat();
  if (surplus.length > 0) {
    context.run.services.logger?.warn(
      { callIds: surplus.map((output) => output.callId) },
      'tool-call-loop middleware returned outputs for unknown or already answered calls; dropped',
    );
  }
  const missing = calls.filter((_, index) => matched[index] === undefined).map((call) => call.id);
  if (missing.length > 0) throw new LoopMissingToolOutputError(missing);
  return matched as ToolOutput[];
}

function toolMessage(call: ToolCall, output: ToolOutput): Message {
  const message: Message = { role: 'tool', tool_call_id: call.id, name: call.function.name, content: '' };
  if (typeof output.content === 'string') {
    message.content = output.content;
    return message;
  }
  const ir = contentPartsToIr(output.content);
  message.content = ir.content;
  if (ir.attachments.length > 0) message.attachments = ir.attachments;
  return message;
}
