/**
 * `callTool(tool, args)`: a tool run by hand from a handler (spec §7.5), outside the model's
 * tool loop. Arguments are checked against the tool's schema, the tool's own middlewares run,
 * and inside an agent the execution is journaled like any tool call (a replay returns the
 * recorded result, or throws the recorded error, without running the handler). It returns the
 * handler's raw result and throws on any failure — unlike the loop, which hands failures to
 * the model. Outside an agent it simply runs the tool (nothing to journal).
 */
import type { z } from 'zod';
import { currentAgentContext } from '../context/context-store.js';
import { InvalidToolArgumentsError } from '../errors/policy-errors.js';
import { assertToolDefinition, equippedTool } from '../hooks/equip-tool.js';
import { DEFAULT_JSON_LIMITS, inspectJson, jsonBoundsError } from '../json/json-bounds.js';
import type { EquippedTool } from '../tools/equipped-tool.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { checkToolArguments, type ToolArguments, type ToolParameters } from '../tools/tool-parameters.js';
import { assertToolOutput, runChain } from './execute-tool-call.js';

/**
 * Runs `tool` with `args` and returns its handler's result.
 * @throws InvalidToolDefinitionError for something that is not a tool
 * @throws InvalidToolArgumentsError when `args` are not JSON or the schema refuses them
 * @throws whatever the tool (or a middleware) throws, e.g. ToolTimeoutError, InvalidToolOutputError
 */
export async function callTool<S extends ToolParameters>(
  tool: ToolDefinition<S>,
  args: S extends z.ZodType ? z.input<S> : ToolArguments<S>,
): Promise<unknown> {
  assertToolDefinition(tool as unknown as ToolDefinition, 'callTool');
  const { problem } = inspectJson(args, DEFAULT_JSON_LIMITS);
  if (problem?.kind === 'not-json')
    throw new InvalidToolArgumentsError(tool.name, [`${problem.path}: ${problem.reason}`]);
  if (problem) throw jsonBoundsError(problem, `the arguments of tool "${tool.name}"`, DEFAULT_JSON_LIMITS);
  const parsed = checkToolArguments(tool.parameters, args);
  if (!parsed.success) {
    throw new InvalidToolArgumentsError(
      tool.name,
      parsed.issues.map((issue) => `${issue.path}: ${issue.message}`),
    );
  }
  const equipped = equippedTool(tool, []);
  const context = currentAgentContext();
  if (!context) return runDetached(equipped, parsed.data);
  const position = context.nextPosition('tool', `callTool-${tool.name}`);
  const call = { id: position, type: 'function' as const, function: { name: tool.name, arguments: '' } };
  const event = { callPath: context.callPath, name: tool.name, toolCallId: position };
  context.run.emit({ type: 'tool-call', ...event, args: parsed.data });
  let replayed = false;
  try {
    const result = await runChain(context, equipped, call, parsed.data, position, (fromJournal) => {
      replayed = fromJournal;
    });
    assertToolOutput(tool.name, result, context.run.services.limits ?? DEFAULT_JSON_LIMITS);
    context.run.emit({ type: 'tool-result', ...event, ok: true, result, replayed });
    return result;
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    context.run.emit({ type: 'tool-result', ...event, ok: false, error: { name, message }, replayed });
    throw error;
  }
}

/** Outside an agent: the tool's middlewares around its handler, nothing journaled. */
async function runDetached(equipped: EquippedTool, args: unknown): Promise<unknown> {
  const tool = equipped.definition;
  const toolCallId = `callTool-${tool.name}`;
  const run = async () => {
    const result = await tool.handler(args, {
      idempotencyKey: toolCallId,
      signal: new AbortController().signal,
      toolCallId,
      agentId: '',
    });
    assertToolOutput(tool.name, result, DEFAULT_JSON_LIMITS);
    return result;
  };
  const chain = equipped.middlewares.reduceRight<() => Promise<unknown>>(
    (next, middleware) => () =>
      middleware.handler(
        {
          toolName: tool.name,
          input: args,
          description: tool.description,
          parameters: equipped.ir.parameters ?? {},
          definition: tool,
          metadata: { agentId: '', callPath: '', toolCallId, runId: '' },
        },
        next,
      ),
    run,
  );
  return chain();
}
