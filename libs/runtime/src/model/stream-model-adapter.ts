/**
 * Model adapters written for the seed agent API stream: `stream(messages, options)` yields
 * events (`text`, `reasoning`, `tool_call` chunks, `extra`, `usage`, `error`, `finish`).
 * Flotilla's contract is one call, `generate(request)`. An adapter of either shape is accepted
 * wherever a model is (`createAgent({ model })`, the `models` of a worker or of `runWith`): a
 * streaming one is wrapped here, its events folded into one response the way the seed's engine
 * folds them, and forwarded as deltas to `onStream` consumers on the way.
 */
import {
  type Attachment,
  type FinishReason,
  type Message,
  resolveAttachment,
  type TokenUsage,
  type ToolCall,
  type ToolDefinition,
} from '@flotilla/ir';
import { z } from 'zod';
import { InvalidModelResponseError } from './invalid-model-response-error.js';
import type { ModelAdapter, ModelRequest, ModelResponse, ToolChoice } from './model-adapter.js';

/** A message in the seed's format, as a streaming adapter receives it. */
export interface SeedMessage {
  role: Message['role'];
  content: string | SeedContentPart[] | null;
  reasoning_content?: string;
  tool_calls?: { id: string; name: string; arguments: string; extra?: Record<string, unknown> }[];
  tool_call_id?: string;
  name?: string;
}

/** A content part in the seed's format. */
export type SeedContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; image: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'video'; video: { url: string } };

/** One event of a streaming adapter (the seed's `StreamEvent`). */
export type SeedStreamEvent =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | {
      type: 'tool_call';
      toolCall: {
        index: number;
        id?: string;
        name?: string;
        arguments?: string;
        extra?: Record<string, unknown>;
      };
    }
  | { type: 'extra'; extra: Record<string, unknown> }
  | { type: 'usage'; usage: TokenUsage }
  | { type: 'error'; error: unknown }
  | { type: 'finish'; finishReason: FinishReason['unified']; usage?: TokenUsage };

/** A tool as a streaming adapter receives it: the seed passes zod parameters; `jsonSchema` is the original. */
export interface SeedToolDefinition {
  name: string;
  description: string;
  parameters: z.ZodType;
  jsonSchema: Record<string, unknown>;
}

/** What a streaming adapter's `stream` is called with besides the messages. */
export interface SeedStreamOptions {
  schema?: Record<string, unknown>;
  tools?: SeedToolDefinition[];
  toolChoice?: ToolChoice;
  signal?: AbortSignal;
  additionalOptions?: Record<string, unknown>;
}

/** The seed API's model adapter contract. */
export interface StreamModelAdapter {
  readonly id: string;
  readonly provider?: string;
  stream(messages: SeedMessage[], options?: SeedStreamOptions): AsyncIterable<SeedStreamEvent>;
  calculateCost?(usage: TokenUsage): Record<string, number>;
}

/** Either adapter contract. */
export type AnyModelAdapter = ModelAdapter | StreamModelAdapter;

/** Whether `model` follows the seed's streaming contract (and not ours). */
export function isStreamModelAdapter(model: unknown): model is StreamModelAdapter {
  return (
    typeof model === 'object' &&
    model !== null &&
    typeof (model as StreamModelAdapter).stream === 'function' &&
    typeof (model as ModelAdapter).generate !== 'function'
  );
}

/** `model` as a Flotilla adapter: a streaming one wrapped, ours unchanged. */
export function toModelAdapter(model: AnyModelAdapter): ModelAdapter {
  if (!isStreamModelAdapter(model)) return model;
  return {
    id: model.id,
    provider: model.provider ?? 'unknown',
    generate: (request) => generateByStreaming(model, request),
  };
}

/** A name → adapter table with every streaming adapter wrapped. */
export function toModelMap(
  models: Readonly<Record<string, AnyModelAdapter>> | ReadonlyMap<string, AnyModelAdapter> | undefined,
): ReadonlyMap<string, ModelAdapter> {
  if (!models) return new Map();
  const entries = models instanceof Map ? [...models.entries()] : Object.entries(models);
  return new Map(entries.map(([name, model]) => [name, toModelAdapter(model as AnyModelAdapter)]));
}

async function generateByStreaming(model: StreamModelAdapter, request: ModelRequest): Promise<ModelResponse> {
  const options: SeedStreamOptions = {};
  if (request.schema) options.schema = request.schema.jsonSchema;
  if (request.tools) options.tools = request.tools.map(seedTool);
  if (request.toolChoice) options.toolChoice = request.toolChoice;
  if (request.signal) options.signal = request.signal;
  const folded = new StreamFold(request.onDelta);
  for await (const event of model.stream(request.messages.map(toSeedMessage), options)) folded.add(event);
  return folded.response({ id: model.id, provider: model.provider ?? 'unknown' });
}

/** Folds stream events into one answer (seed §6.2 rules: last usage wins, `finish.usage` overrides). */
class StreamFold {
  #text = '';
  #reasoning = '';
  #calls = new Map<number, { id: string; name: string; arguments: string; extra: Record<string, unknown> }>();
  #usage: TokenUsage | undefined;
  #finish: FinishReason['unified'] = 'unknown';

  constructor(readonly onDelta: ModelRequest['onDelta']) {}

  add(event: SeedStreamEvent): void {
    switch (event.type) {
      case 'text':
        this.#text += event.content;
        this.onDelta?.({ type: 'text-delta', text: event.content });
        return;
      case 'reasoning':
        this.#reasoning += event.content;
        this.onDelta?.({ type: 'reasoning-delta', text: event.content });
        return;
      case 'tool_call':
        this.#addCall(event.toolCall);
        return;
      case 'usage':
        this.#usage = event.usage;
        return;
      case 'finish':
        this.#finish = event.finishReason;
        if (event.usage) this.#usage = event.usage;
        return;
      case 'error':
        throw event.error instanceof Error ? event.error : new Error(String(event.error));
      default:
        return; // `extra` and unknown events carry provider data the IR does not keep
    }
  }

  #addCall(chunk: Extract<SeedStreamEvent, { type: 'tool_call' }>['toolCall']): void {
    const call = this.#calls.get(chunk.index) ?? { id: '', name: '', arguments: '', extra: {} };
    if (chunk.id) call.id = chunk.id;
    if (chunk.name) call.name = chunk.name;
    if (chunk.arguments) call.arguments += chunk.arguments;
    if (chunk.extra) Object.assign(call.extra, chunk.extra);
    this.#calls.set(chunk.index, call);
    this.onDelta?.({
      type: 'tool-call-delta',
      index: chunk.index,
      ...(chunk.id ? { id: chunk.id } : {}),
      ...(chunk.name ? { name: chunk.name } : {}),
      ...(chunk.arguments ? { argumentsDelta: chunk.arguments } : {}),
    });
  }

  response(model: { id: string; provider: string }): ModelResponse {
    const message: ModelResponse['message'] = { role: 'assistant', content: this.#text };
    if (this.#reasoning !== '') message.thinking = { thinking: this.#reasoning };
    const calls = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    if (calls.length > 0) message.tool_calls = calls.map((call) => irCall(call, model));
    return {
      message,
      usage: this.#usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      finishReason: { unified: this.#finish },
    };
  }
}

function irCall(
  call: { id: string; name: string; arguments: string; extra: Record<string, unknown> },
  model: { id: string; provider: string },
): ToolCall {
  if (call.id === '' || call.name === '') {
    throw new InvalidModelResponseError(
      model,
      `a streamed tool call has no ${call.id === '' ? 'id' : 'name'}; every tool_call chunk group needs both`,
    );
  }
  const ir: ToolCall = {
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  };
  if (typeof call.extra.thoughtSignature === 'string') ir.thoughtSignature = call.extra.thoughtSignature;
  return ir;
}

function seedTool(tool: ToolDefinition): SeedToolDefinition {
  const jsonSchema = tool.parameters ?? { type: 'object', properties: {} };
  let parameters: z.ZodType;
  try {
    parameters = z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    parameters = z.record(z.string(), z.unknown()); // the adapter still has `jsonSchema`
  }
  return { name: tool.name, description: tool.description ?? '', parameters, jsonSchema };
}

/** IR → the seed's message format (what a streaming adapter reads). */
export function toSeedMessage(message: Message): SeedMessage {
  const seed: SeedMessage = { role: message.role, content: seedContent(message) };
  if (message.thinking?.thinking) seed.reasoning_content = message.thinking.thinking;
  if (message.tool_calls?.length) {
    seed.tool_calls = message.tool_calls.map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      ...(call.thoughtSignature ? { extra: { thoughtSignature: call.thoughtSignature } } : {}),
    }));
    if (seed.content === '') seed.content = null;
  }
  if (message.tool_call_id !== undefined) seed.tool_call_id = message.tool_call_id;
  if (message.name !== undefined && message.role !== 'tool') seed.name = message.name;
  return seed;
}

function seedContent(message: Message): SeedMessage['content'] {
  const attachments = message.attachments ?? [];
  if (attachments.length === 0) return message.content;
  const parts: SeedContentPart[] = message.content === '' ? [] : [{ type: 'text', text: message.content }];
  return [...parts, ...attachments.map(seedPart)];
}

function seedPart(attachment: Attachment): SeedContentPart {
  const resolved = resolveAttachment(attachment);
  const url =
    resolved.source === 'url'
      ? resolved.url
      : resolved.source === 'base64'
        ? `data:${resolved.mediaType};base64,${resolved.base64}`
        : resolved.fileId;
  if (attachment.mediaType.startsWith('video/')) return { type: 'video', video: { url } };
  const detail = attachment.detail === 'original' ? 'high' : attachment.detail;
  return { type: 'image', image: { url, ...(detail ? { detail } : {}) } };
}
