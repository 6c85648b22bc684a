/**
 * One stored conversation driven through four providers on a real worker (BullMQ, Redis
 * conversation store): OpenAI Chat Completions → Gemini → Anthropic → OpenAI Responses, each
 * leg a `promptChat` run on the same conversationId with a tool call whose result carries an
 * image. Every adapter is real and talks to a local server speaking its provider's wire format
 * and enforcing its request rules (a broken rule is a 400, as the provider would answer), so
 * each request must be one the provider accepts; every degradation must arrive as a
 * CompileWarning. A second conversation fails over between providers in the middle of a tool
 * loop.
 */
import { randomUUID } from 'node:crypto';
import { createAnthropicAdapter } from '@flotilla/adapters/anthropic';
import { createGeminiAdapter } from '@flotilla/adapters/gemini';
import { createOpenAIAdapter } from '@flotilla/adapters/openai';
import type { CompileWarning, Message } from '@flotilla/ir';
import { createAgent, equipTool, promptChat, toolContent } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProviderTestServer, TestReply } from '../../libs/adapters/src/shared/provider-test-server.js';
import { startProviderTestServer } from '../../libs/adapters/src/shared/provider-test-server.js';
import {
  anthropicRules,
  chatCompletionsRules,
  geminiRules,
  responsesRules,
} from '../../libs/adapters/src/shared/provider-wire-rules.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis(import.meta.filename);

/** A 1×1 PNG, as base64: the chart every leg's tool returns. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

type Leg = 'openai' | 'gemini' | 'anthropic' | 'responses';
const servers = {} as Record<Leg, ProviderTestServer>;
const warnings: Array<CompileWarning & { leg: Leg }> = [];
let worker: FlotillaWorker | undefined;
let client: FlotillaClient | undefined;

/** The tool of every leg: a chart of the city, as text and an image. */
const chart = {
  name: 'chart',
  description: 'A weather chart of a city',
  parameters: z.object({ city: z.string() }),
  handler: async ({ city }: { city: string }) =>
    toolContent([
      { type: 'text', text: `chart of ${city}` },
      { type: 'image', image: { url: `data:image/png;base64,${PNG}` } },
    ]),
};

/** One agent per provider; without a message it continues the stored conversation. */
const agents = (['openai', 'gemini', 'anthropic', 'responses'] as const).map((leg) =>
  createAgent({
    id: `chat-${leg}`,
    model: leg,
    handler: async ({ message }: { message?: string }) => {
      equipTool(chart);
      return (await promptChat(message === undefined ? {} : { message })).data;
    },
  }),
);

beforeAll(async () => {
  servers.openai = await startProviderTestServer({ validate: chatCompletionsRules });
  servers.gemini = await startProviderTestServer({ validate: geminiRules });
  servers.anthropic = await startProviderTestServer({ validate: anthropicRules });
  servers.responses = await startProviderTestServer({ validate: responsesRules });
  const onWarning = (leg: Leg) => (warning: CompileWarning) => warnings.push({ leg, ...warning });
  const retries = { maxRetries: 0 };
  worker = createWorker({
    agents,
    models: {
      openai: createOpenAIAdapter({
        model: 'gpt-4.1-mini',
        apiKey: 'sk-test',
        baseURL: `${servers.openai.url}/v1`,
        onWarning: onWarning('openai'),
        ...retries,
      }),
      gemini: createGeminiAdapter({
        model: 'gemini-3-pro-preview',
        apiKey: 'gemini-test-key',
        baseUrl: servers.gemini.url,
        onWarning: onWarning('gemini'),
        ...retries,
      }),
      anthropic: createAnthropicAdapter({
        model: 'claude-sonnet-4-5',
        apiKey: 'sk-ant-test',
        baseURL: servers.anthropic.url,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        onWarning: onWarning('anthropic'),
        ...retries,
      }),
      responses: createOpenAIAdapter({
        model: 'o4-mini',
        api: 'responses',
        apiKey: 'sk-test',
        baseURL: `${servers.responses.url}/v1`,
        extraBody: { store: false, include: ['reasoning.encrypted_content'] },
        onWarning: onWarning('responses'),
        ...retries,
      }),
    },
    connection: redis.url,
    prefix: redis.prefix,
    concurrency: 1,
    logger: pino({ level: 'silent' }),
  });
  await worker.waitUntilReady();
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await worker?.close();
  await Promise.all(Object.values(servers).map((server) => server.close()));
});

/** Runs one leg: the provider's server answers with `replies`; returns the leg's request bodies. */
async function leg(
  which: Leg,
  conversationId: string,
  message: string | undefined,
  replies: TestReply[],
): Promise<{ bodies: WireBody[]; result: unknown }> {
  const server = servers[which];
  server.requests.length = 0;
  server.reply(...replies);
  const run = await client!.submit(`chat-${which}`, message === undefined ? {} : { message }, {
    conversationId,
  });
  const result = await run.result().catch((error: unknown) => error);
  return { bodies: server.requests.map((request) => request.body as WireBody), result };
}

/** A request body as the local server parsed it; each assertion reads the fields of its provider. */
// biome-ignore lint/suspicious/noExplicitAny: wire JSON of four providers, asserted field by field
type WireBody = any;

const json = (body: unknown): TestReply => ({ kind: 'json', body });
const outage: TestReply = { kind: 'json', status: 503, body: { error: { message: 'simulated outage' } } };

// The chart image in each wire format.
const dataUrl = `data:image/png;base64,${PNG}`;
const chatImage = { role: 'user', content: [{ type: 'image_url', image_url: { url: dataUrl } }] };
const geminiImage = { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] };
const anthropicResult = (id: string, city: string) => ({
  type: 'tool_result',
  tool_use_id: id,
  content: [
    { type: 'text', text: `chart of ${city}` },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
  ],
});
const responsesImage = {
  type: 'message',
  role: 'user',
  content: [{ type: 'input_image', image_url: dataUrl }],
};

const codes = (which: Leg) =>
  warnings.filter((warning) => warning.leg === which).map((warning) => warning.code);

describe('one conversation across OpenAI, Gemini, Anthropic and OpenAI Responses', () => {
  it('resumes on each provider with its tool call and image result, every request accepted', async () => {
    const conversationId = `conv-${randomUUID()}`;
    warnings.length = 0;

    // Leg 1, OpenAI Chat Completions: the image goes in a user message after the tool message.
    const openai = await leg('openai', conversationId, 'Chart Paris', [
      json(chatReply({ toolCall: { id: 'call_paris', name: 'chart', arguments: '{"city":"Paris"}' } })),
      json(chatReply({ text: 'Paris: sunny.' })),
    ]);
    expect(openai.result).toBe('Paris: sunny.');
    expect(openai.bodies[1].messages).toEqual([
      { role: 'user', content: 'Chart Paris' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_paris', type: 'function', function: { name: 'chart', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_paris', content: 'chart of Paris' },
      chatImage,
    ]);

    // Leg 2, Gemini: OpenAI's call (unsigned, in an earlier turn) is named in its function
    // response; Gemini's own call goes back with its thought signature.
    const gemini = await leg('gemini', conversationId, 'Chart Rome', [
      json(
        geminiReply({
          call: { name: 'chart', args: { city: 'Rome' } },
          signature: 'sig-rome',
          thought: 'Rome needs a chart.',
        }),
      ),
      json(geminiReply({ text: 'Rome: cloudy.', signature: 'sig-rome-text' })),
    ]);
    expect(gemini.result).toBe('Rome: cloudy.');
    expect(gemini.bodies[0].contents).toEqual([
      { role: 'user', parts: [{ text: 'Chart Paris' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'call_paris', name: 'chart', args: { city: 'Paris' } } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_paris', name: 'chart', response: { result: 'chart of Paris' } } },
        ],
      },
      geminiImage,
      { role: 'model', parts: [{ text: 'Paris: sunny.' }] },
      { role: 'user', parts: [{ text: 'Chart Rome' }] },
    ]);
    const romeCall = gemini.bodies[1].contents[6].parts[0];
    expect(romeCall).toEqual({
      functionCall: { id: expect.any(String), name: 'chart', args: { city: 'Rome' } },
      thoughtSignature: 'sig-rome',
    });
    expect(gemini.bodies[1].contents.slice(7)).toEqual([
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: romeCall.functionCall.id,
              name: 'chart',
              response: { result: 'chart of Rome' },
            },
          },
        ],
      },
      geminiImage,
    ]);

    // Leg 3, Anthropic with thinking: Gemini's unsigned thought is dropped (a warning), tool
    // images are native blocks, Claude's signed thinking opens its tool loop on the way back.
    const anthropic = await leg('anthropic', conversationId, 'Chart Berlin', [
      json(
        anthropicReply(
          [
            { type: 'thinking', thinking: 'Berlin needs a chart.', signature: 'sig-berlin' },
            { type: 'redacted_thinking', data: 'redacted-berlin' },
            { type: 'tool_use', id: 'toolu_berlin', name: 'chart', input: { city: 'Berlin' } },
          ],
          'tool_use',
        ),
      ),
      json(
        anthropicReply(
          [
            { type: 'thinking', thinking: 'The chart shows rain.', signature: 'sig-berlin-2' },
            { type: 'text', text: 'Berlin: rain.' },
          ],
          'end_turn',
        ),
      ),
    ]);
    expect(anthropic.result).toBe('Berlin: rain.');
    const earlier = anthropic.bodies[0].messages;
    expect(earlier.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(earlier[2].content).toEqual([anthropicResult('call_paris', 'Paris')]);
    expect(earlier[5].content).toEqual([
      { type: 'tool_use', id: romeCall.functionCall.id, name: 'chart', input: { city: 'Rome' } },
    ]);
    expect(anthropic.bodies[1].thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(anthropic.bodies[1].messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Berlin needs a chart.', signature: 'sig-berlin' },
          { type: 'redacted_thinking', data: 'redacted-berlin' },
          { type: 'tool_use', id: 'toolu_berlin', name: 'chart', input: { city: 'Berlin' } },
        ],
      },
      { role: 'user', content: [anthropicResult('toolu_berlin', 'Berlin')] },
    ]);

    // Leg 4, OpenAI Responses: Claude's redacted thinking cannot go (a warning); the reasoning
    // item of its own call goes back before it.
    const responses = await leg('responses', conversationId, 'Chart Madrid', [
      json(
        responsesReply([
          { id: 'rs_madrid', type: 'reasoning', encrypted_content: 'enc-madrid', summary: [] },
          {
            id: 'fc_madrid',
            type: 'function_call',
            status: 'completed',
            call_id: 'call_madrid',
            name: 'chart',
            arguments: '{"city":"Madrid"}',
          },
        ]),
      ),
      json(
        responsesReply([
          {
            id: 'msg_madrid',
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'Madrid: hot.', annotations: [] }],
          },
        ]),
      ),
    ]);
    expect(responses.result).toBe('Madrid: hot.');
    expect(responses.bodies[0].input.filter((item: { type: string }) => item.type !== 'message')).toEqual([
      { type: 'function_call', call_id: 'call_paris', name: 'chart', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_paris', output: 'chart of Paris' },
      {
        type: 'function_call',
        call_id: romeCall.functionCall.id,
        name: 'chart',
        arguments: '{"city":"Rome"}',
      },
      { type: 'function_call_output', call_id: romeCall.functionCall.id, output: 'chart of Rome' },
      { type: 'function_call', call_id: 'toolu_berlin', name: 'chart', arguments: '{"city":"Berlin"}' },
      { type: 'function_call_output', call_id: 'toolu_berlin', output: 'chart of Berlin' },
    ]);
    expect(responses.bodies[1].input.slice(-4)).toEqual([
      { id: 'rs_madrid', type: 'reasoning', encrypted_content: 'enc-madrid', summary: [] },
      { type: 'function_call', call_id: 'call_madrid', name: 'chart', arguments: '{"city":"Madrid"}' },
      { type: 'function_call_output', call_id: 'call_madrid', output: 'chart of Madrid' },
      responsesImage,
    ]);

    // Every degradation was reported, once per request that made it. Gemini's schema subset has
    // no `additionalProperties`, so the zod tool's closed object loses it there (arguments are
    // still checked against the original schema).
    expect(codes('openai')).toEqual([]);
    expect(codes('gemini')).toEqual(['tool-schema-keyword-dropped', 'tool-schema-keyword-dropped']);
    expect(codes('anthropic')).toEqual(['thinking-unsigned-dropped', 'thinking-unsigned-dropped']);
    expect(codes('responses')).toEqual(['redacted-thinking-dropped', 'redacted-thinking-dropped']);

    // The store kept every provider's own reasoning data for its next turn on that provider.
    const stored = await client!.getConversation(conversationId);
    expect(stored?.header.model).toEqual({ provider: 'openai', id: 'o4-mini' });
    const messages = stored?.messages ?? [];
    expect(messages.map((message: Message) => message.role).join(' ')).toBe(
      Array(4).fill('user assistant tool assistant').join(' '),
    );
    expect(messages[5]?.tool_calls?.[0]?.thoughtSignature).toBe('sig-rome');
    expect(messages[7]?._gemini_thought_signature).toBe('sig-rome-text');
    expect(messages[9]).toMatchObject({
      thinking: { thinking: 'Berlin needs a chart.', signature: 'sig-berlin' },
      redacted_thinking: { data: 'redacted-berlin' },
    });
    expect(messages[13]?._openai_reasoning).toEqual([
      { id: 'rs_madrid', type: 'reasoning', encrypted_content: 'enc-madrid', summary: [] },
    ]);
    expect(
      messages.filter((message: Message) => message.role === 'tool').map((m: Message) => m.attachments),
    ).toEqual(Array(4).fill([{ mediaType: 'image/png', data: PNG, source: 'base64' }]));
  });

  it('fails over in the middle of a tool loop: OpenAI → Gemini → Anthropic, each continuing the loop', async () => {
    const conversationId = `conv-${randomUUID()}`;
    warnings.length = 0;

    // OpenAI calls the tool, then fails: the call and its result are stored, the answer is not.
    const openai = await leg('openai', conversationId, 'Chart Oslo', [
      json(chatReply({ toolCall: { id: 'call_oslo', name: 'chart', arguments: '{"city":"Oslo"}' } })),
      outage,
    ]);
    expect(openai.bodies).toHaveLength(2);
    expect(String(openai.result)).toContain('simulated outage');

    // Gemini continues the same turn: OpenAI's call carries no signature, so it is sent with
    // Gemini's skip value (a Gemini 3 server would refuse it otherwise); then Gemini fails too.
    const gemini = await leg('gemini', conversationId, undefined, [
      json(geminiReply({ call: { name: 'chart', args: { city: 'Bergen' } }, signature: 'sig-bergen' })),
      outage,
    ]);
    expect(gemini.bodies).toHaveLength(2);
    expect(String(gemini.result)).toContain('simulated outage');
    const calls = gemini.bodies[1].contents
      .flatMap((content: { parts: Array<Record<string, unknown>> }) => content.parts)
      .filter((part: Record<string, unknown>) => part.functionCall);
    expect(calls.map((part: Record<string, unknown>) => part.thoughtSignature)).toEqual([
      'skip_thought_signature_validator',
      'sig-bergen',
    ]);
    expect(codes('gemini')).toEqual([
      'tool-schema-keyword-dropped',
      'thought-signature-skipped',
      'tool-schema-keyword-dropped',
      'thought-signature-skipped',
    ]);

    // Anthropic with thinking finishes the turn: the loop did not start with a thinking block,
    // so thinking stays off for it (a warning) and comes back with the next user message.
    const anthropic = await leg('anthropic', conversationId, undefined, [
      json(anthropicReply([{ type: 'text', text: 'Oslo and Bergen: snow.' }], 'end_turn')),
    ]);
    expect(anthropic.result).toBe('Oslo and Bergen: snow.');
    expect(anthropic.bodies[0].thinking).toBeUndefined();
    expect(anthropic.bodies[0].messages.at(-1).content).toEqual([
      anthropicResult(calls[1].functionCall.id, 'Bergen'),
    ]);
    expect(codes('anthropic')).toEqual(['thinking-off-mid-tool-loop']);

    const next = await leg('anthropic', conversationId, 'Thanks', [
      json(
        anthropicReply(
          [
            { type: 'thinking', thinking: 'Polite.', signature: 'sig-thanks' },
            { type: 'text', text: 'You are welcome.' },
          ],
          'end_turn',
        ),
      ),
    ]);
    expect(next.result).toBe('You are welcome.');
    expect(next.bodies[0].thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });
});

// Provider answers, in each wire format.

function chatReply(answer: { text?: string; toolCall?: { id: string; name: string; arguments: string } }) {
  const call = answer.toolCall;
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: 1764441780,
    model: 'gpt-4.1-mini-2025-04-14',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text ?? null,
          refusal: null,
          ...(call
            ? {
                tool_calls: [
                  { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } },
                ],
              }
            : {}),
        },
        finish_reason: call ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
  };
}

function geminiReply(answer: {
  text?: string;
  call?: { name: string; args: unknown };
  signature: string;
  thought?: string;
}) {
  const parts: unknown[] = [];
  if (answer.thought) parts.push({ text: answer.thought, thought: true });
  if (answer.call) parts.push({ functionCall: answer.call, thoughtSignature: answer.signature });
  if (answer.text) parts.push({ text: answer.text, thoughtSignature: answer.signature });
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: 80,
      candidatesTokenCount: 12,
      thoughtsTokenCount: 20,
      totalTokenCount: 112,
    },
    modelVersion: 'gemini-3-pro-preview',
    responseId: `resp-${randomUUID()}`,
  };
}

function anthropicReply(content: unknown[], stopReason: string) {
  return {
    id: `msg_${randomUUID()}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: 120,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 30,
    },
  };
}

function responsesReply(output: unknown[]) {
  return {
    id: `resp_${randomUUID()}`,
    object: 'response',
    created_at: 1764441840,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: 'o4-mini-2025-04-16',
    output,
    usage: { input_tokens: 200, output_tokens: 40, total_tokens: 240 },
  };
}
