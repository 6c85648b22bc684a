import type {
  ToolChoice as AnthropicToolChoice,
  CacheControlEphemeral,
  MessageCreateParamsNonStreaming,
  ThinkingConfigParam,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import type { AnthropicContentBlock, AnthropicPayload } from '@flotilla/ir';
import { AnthropicAdapter, MAX_CACHE_BREAKPOINTS } from '@flotilla/ir';
import type { ModelRequest, ToolChoice } from '@flotilla/runtime';
import { reportWarning } from '../shared/report-warning.js';
import type { AnthropicModelAdapterOptions } from './anthropic-model-adapter-options.js';

/** The body of a non-streaming `messages.create`; streaming adds `stream: true`. */
export type AnthropicRequestBody = MessageCreateParamsNonStreaming;

/** `max_tokens` when the options do not say: the Messages API requires one. */
export const DEFAULT_MAX_TOKENS = 4096;

const target = new AnthropicAdapter();

/** A request body, and the name of the tool that carries structured output (tool mode only). */
export interface BuiltAnthropicRequest {
  body: AnthropicRequestBody;
  outputTool: string | undefined;
}

/**
 * IR request → Messages API body: `system`, `messages` (signed thinking re-sent, tool results
 * with native media, cache breakpoints of `_cache_breakpoint` messages) and tools from the
 * `@flotilla/ir` `anthropic` target; then tool choice (only with tools), structured output
 * (`output_config.format`, or a forced output tool), thinking, prompt caching (top-level
 * `cache_control`, one TTL for every breakpoint) and `extraBody` underneath everything the
 * adapter sets.
 */
export function buildAnthropicRequest(
  request: ModelRequest,
  options: AnthropicModelAdapterOptions,
): BuiltAnthropicRequest {
  const payload = target.compile(request.messages, {
    ...(request.tools ? { tools: request.tools } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  const body: AnthropicRequestBody = {
    ...options.extraBody,
    model: options.model,
    max_tokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: payload.messages as AnthropicRequestBody['messages'],
  };
  if (payload.system) body.system = payload.system as AnthropicRequestBody['system'];
  const tools: ToolUnion[] = (payload.tools ?? []) as ToolUnion[];
  const outputTool = addStructuredOutput(body, tools, request, options);
  const thinking = thinkingFor(payload, options);
  if (tools.length > 0) {
    body.tools = tools;
    const choice = toolChoice(request.toolChoice, outputTool, tools.length, thinking, options.onWarning);
    if (choice) body.tool_choice = choice;
  }
  if (thinking) body.thinking = thinking;
  applyCaching(body, payload, options);
  return { body, outputTool };
}

/** Native JSON output, or (tool mode) a tool whose input is the answer; returns that tool's name. */
function addStructuredOutput(
  body: AnthropicRequestBody,
  tools: ToolUnion[],
  request: ModelRequest,
  options: AnthropicModelAdapterOptions,
): string | undefined {
  if (!request.schema) return undefined;
  if ((options.structuredOutput ?? 'json-schema') === 'json-schema') {
    body.output_config = {
      ...body.output_config,
      format: { type: 'json_schema', schema: request.schema.jsonSchema },
    };
    return undefined;
  }
  const { name, jsonSchema } = request.schema;
  tools.push({
    name,
    description: 'Give your final answer by calling this tool; its input is the answer.',
    input_schema: { ...jsonSchema, type: 'object' },
  });
  return name;
}

/**
 * The thinking to send. The API wants every assistant turn in one thinking mode: a tool loop
 * whose turn did not start with a thinking block (it began on another provider, or without
 * thinking) is rejected with thinking on, so thinking is left off until the next user
 * message, reported as `thinking-off-mid-tool-loop`.
 */
function thinkingFor(
  payload: AnthropicPayload,
  options: AnthropicModelAdapterOptions,
): ThinkingConfigParam | undefined {
  const thinking = options.thinking;
  if (!thinking || thinking.type === 'disabled') return thinking;
  const messages = payload.messages;
  const last = messages.at(-1);
  if (last?.role !== 'user' || !blocksOf(last).some((block) => block.type === 'tool_result')) return thinking;
  // The turn began after the last user message that answers no call.
  const turnStart = messages.findLastIndex(
    (message) => message.role === 'user' && !blocksOf(message).some((block) => block.type === 'tool_result'),
  );
  const first = blocksOf(messages[turnStart + 1] ?? last)[0];
  if (first?.type === 'thinking' || first?.type === 'redacted_thinking') return thinking;
  reportWarning(options.onWarning, {
    code: 'thinking-off-mid-tool-loop',
    message:
      'anthropic adapter: the current tool loop did not start with a thinking block (it began on another provider or without thinking); thinking is off until the next user message',
  });
  return undefined;
}

/**
 * Tool choice: `required` is `any`, a named function is `tool`. In tool mode the output tool
 * is forced when it is the only tool, else any tool must be called (the model still reaches
 * the real tools). The API refuses forced tool use with thinking, so with thinking a forced
 * choice becomes `auto` (reported as `tool-choice-relaxed` when the caller asked for it).
 */
function toolChoice(
  choice: ToolChoice | undefined,
  outputTool: string | undefined,
  toolCount: number,
  thinking: ThinkingConfigParam | undefined,
  onWarning: AnthropicModelAdapterOptions['onWarning'],
): AnthropicToolChoice | undefined {
  const forced = requestedChoice(choice, outputTool, toolCount);
  if (!forced || forced.type === 'auto' || forced.type === 'none') return forced;
  if (!thinking || thinking.type === 'disabled') return forced;
  if (choice !== undefined)
    reportWarning(onWarning, {
      code: 'tool-choice-relaxed',
      message: `anthropic adapter: thinking is on and the API refuses forced tool use; tool_choice ${forced.type} sent as auto`,
    });
  return { type: 'auto' };
}

function requestedChoice(
  choice: ToolChoice | undefined,
  outputTool: string | undefined,
  toolCount: number,
): AnthropicToolChoice | undefined {
  if (outputTool !== undefined && choice === undefined)
    return toolCount === 1 ? { type: 'tool', name: outputTool } : { type: 'any' };
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.function.name };
}

/**
 * Automatic caching takes one of the API's breakpoint slots, so the earliest explicit
 * breakpoints beyond the rest are removed (reported as `cache-breakpoints-limited`); a TTL
 * applies to every breakpoint, so the API's ordering rule for mixed TTLs cannot be broken.
 */
function applyCaching(
  body: AnthropicRequestBody,
  payload: AnthropicPayload,
  options: AnthropicModelAdapterOptions,
): void {
  const control: CacheControlEphemeral = { type: 'ephemeral' };
  if (options.cacheTtl) control.ttl = options.cacheTtl;
  const marked = [...(payload.system ?? []), ...payload.messages.flatMap(blocksOf)].filter(
    (block) => 'cache_control' in block && block.cache_control,
  );
  if (options.autoCache) {
    body.cache_control = { ...control };
    const excess = marked.length - (MAX_CACHE_BREAKPOINTS - 1);
    if (excess > 0) {
      for (const block of marked.splice(0, excess)) if ('cache_control' in block) delete block.cache_control;
      reportWarning(options.onWarning, {
        code: 'cache-breakpoints-limited',
        message: `anthropic adapter: automatic caching takes one of the ${MAX_CACHE_BREAKPOINTS} cache breakpoints; the first ${excess} message breakpoint(s) were removed`,
      });
    }
  }
  if (options.cacheTtl) {
    for (const block of marked) if ('cache_control' in block) block.cache_control = { ...control };
  }
}

function blocksOf(message: AnthropicPayload['messages'][number]): AnthropicContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}
