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
import type { ToolCallLoopContext, ToolOutput, ToolTurn } from '../tools/tool-call-loop-middleware.js';
import { executeToolCall } from './execute-tool-call.js';
import { assertUniqueToolNames } from './execute-turn.js';
import type { PromptContext } from './prompt-context.js';
import { checkPromptRuntime } from './prompt-context.js';

/** Options of {@link executeTools}. */
export interface ExecuteToolsOptions {
  runtime: PromptContext;
  /** Run the calls without the loop middlewares. @default false */
  skipLoopMiddleware?: boolean;
  /** What loop middlewares see about the loop so far. */
  loop?: { step: number; messages: readonly Message[]; toolTurns: ToolTurn[] };
}

/**
 * Executes `toolCalls` and returns one tool message per call, in call order. Tool failures are
 * returned to the model as error messages, never thrown.
 * @throws InvalidPromptRuntimeError, DuplicateToolNameError, LoopMissingToolOutputError, AbortError
 */
export async function executeTools(toolCalls: ToolCall[], options: ExecuteToolsOptions): Promise<Message[]> {
  const context = checkPromptRuntime('executeTools', options.runtime);
  assertUniqueToolNames(options.runtime, 'executeTools');
  const tools = new Map<string, EquippedTool>(options.runtime.tools.map((tool) => [tool.ir.name, tool]));
  const positions = reservePositions(context, toolCalls);
  const run = async (calls: ToolCall[]): Promise<ToolOutput[]> => {
    const results = await Promise.all(
      calls.map((call) => executeToolCall(context, tools, call, positions.take(call))),
    );
    return results.map((result) => result.output);
  };
  const middlewares = options.skipLoopMiddleware ? [] : options.runtime.toolCallLoopMiddlewares;
  const loopContext: ToolCallLoopContext = {
    step: options.loop?.step ?? 0,
    messages: options.loop?.messages ?? [],
    toolTurns: options.loop?.toolTurns ?? [],
    originalCalls: toolCalls,
  };
  const chain = middlewares.reduceRight<(calls: ToolCall[]) => Promise<ToolOutput[]>>(
    (next, middleware) => (calls) => middleware.handler(loopContext, calls, next),
    run,
  );
  const outputs =
    middlewares.length > 0 ? matchOutputs(context, toolCalls, await chain(toolCalls)) : await run(toolCalls);
  return toolCalls.map((call, index) => toolMessage(call, outputs[index] as ToolOutput));
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
