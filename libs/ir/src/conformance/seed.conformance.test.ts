import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  AnthropicAdapter,
  type AnthropicPayload,
  adapterRegistry,
  CONVERSATION_CONTINUES,
  ContextChef,
  compact,
  ensureValidHistory,
  fromAnthropic,
  fromGemini,
  fromOpenAI,
  fromOpenAIResponses,
  GeminiAdapter,
  getAdapter,
  type ITargetAdapter,
  type Message,
  MISSING_TOOL_RESULT,
  OpenAIAdapter,
  type OpenAIPayload,
  OpenAIResponsesAdapter,
  SUMMARY_INSTRUCTIONS,
  summarizeHistory,
  type TargetPayload,
} from '../index.js';
import { PDF, PNG } from '../testing/sample-media.js';
import { toolCall } from '../testing/tool-call.js';

/**
 * The seed document `ir-adapters.txt` (a copy of the promise made to users) walked line by
 * line: every line that promises something has a test below that names it, and the last two
 * tests fail when a promising line has no test or a test quotes text the seed no longer says.
 * `@context-chef/core` in the seed is `@flotilla/ir` here.
 */
const SEED = readFileSync(new URL('./__fixtures__/ir-adapters.txt', import.meta.url), 'utf8').split('\n');

/** Lines that promise nothing by themselves: headings, table headers, labels of code examples. */
const NOT_PROMISES = [1, 5, 11, 15, 19, 25, 32, 34, 48, 59, 63, 67, 84];

interface SeedPromise {
  /** 1-based line numbers in the seed. */
  lines: number[];
  /** Words of the seed this test checks; must appear in those lines. */
  quote: string;
  test: () => unknown;
}

const SOURCE = 'seed-conformance';
afterEach(() => {
  adapterRegistry.unregisterBySource(SOURCE);
  adapterRegistry.unregisterBySource('my-plugin');
});

const call = (id: string, name = 'get_weather', args = '{"city":"Oslo"}') => toolCall(id, name, args);

/** A small tool-using conversation in each provider's own format. */
const openaiMessages = [
  { role: 'system', content: 'You are a weather bot.' },
  { role: 'user', content: 'Weather in Oslo?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
  { role: 'assistant', content: 'It is sunny.' },
  { role: 'user', content: 'Thanks' },
];
const anthropicSystem = [{ type: 'text', text: 'You are a weather bot.' }];
const anthropicMessages = [
  { role: 'user', content: 'Weather in Oslo?' },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Oslo' } }],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'sunny' }] },
  { role: 'assistant', content: 'It is sunny.' },
  { role: 'user', content: 'Thanks' },
];
const systemInstruction = { parts: [{ text: 'You are a weather bot.' }] };
const geminiContents = [
  { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
  { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
  { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { forecast: 'sunny' } } }] },
  { role: 'model', parts: [{ text: 'It is sunny.' }] },
  { role: 'user', parts: [{ text: 'Thanks' }] },
];

/** The same tool conversation as IR. */
function toolConversation(): Message[] {
  return [
    { role: 'system', content: 'You are a weather bot.' },
    { role: 'user', content: 'Weather in Oslo?' },
    { role: 'assistant', content: '', tool_calls: [call('c1')] },
    { role: 'tool', content: 'sunny', tool_call_id: 'c1', name: 'get_weather' },
    { role: 'assistant', content: 'It is sunny.' },
    { role: 'user', content: 'Thanks' },
  ];
}

const json = (value: unknown) => JSON.stringify(value);

class CohereAdapter implements ITargetAdapter {
  readonly seen: Message[][] = [];
  compile(messages: Message[]) {
    this.seen.push(messages);
    return { chat_history: messages.map((m) => ({ role: m.role.toUpperCase(), message: m.content })) };
  }
}

const promises: SeedPromise[] = [
  {
    lines: [3],
    quote:
      'the same prompt architecture works across OpenAI, Anthropic, Gemini, and anything you register yourself',
    test: async () => {
      const { system, history } = fromOpenAI(openaiMessages);
      const chef = new ContextChef().setSystemPrompt(system).setHistory(history);
      adapterRegistry.register('seed-custom', new CohereAdapter(), SOURCE);
      for (const target of ['openai', 'anthropic', 'gemini', 'openai-responses', 'seed-custom']) {
        const payload = await chef.compile({ target });
        expect(json(payload)).toContain('It is sunny.');
      }
    },
  },
  {
    lines: [7],
    quote: 'automatically separating system and history',
    test: () => {
      const parsed = [
        fromOpenAI(openaiMessages),
        fromAnthropic(anthropicMessages, anthropicSystem),
        fromGemini(geminiContents, systemInstruction),
        fromOpenAIResponses([{ role: 'user', content: 'Weather in Oslo?' }], 'You are a weather bot.'),
      ];
      for (const { system, history } of parsed) {
        expect(system).toEqual([{ role: 'system', content: 'You are a weather bot.' }]);
        expect(history.every((message) => message.role !== 'system')).toBe(true);
      }
    },
  },
  {
    lines: [7],
    quote: 'orphan tool results are dropped',
    test: () => {
      const { history } = fromOpenAI([
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'nobody-asked', content: 'stray' },
      ]);
      expect(history).toEqual([{ role: 'user', content: 'hi' }]);
    },
  },
  {
    lines: [7],
    quote: 'missing tool results get an [No tool result available] placeholder',
    test: () => {
      const { history } = fromAnthropic([
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'probe', input: {} }] },
        { role: 'user', content: 'never mind' },
      ]);
      expect(history[2]).toMatchObject({
        role: 'tool',
        tool_call_id: 't1',
        content: '[No tool result available]',
      });
      expect(MISSING_TOOL_RESULT).toBe('[No tool result available]');
    },
  },
  {
    lines: [7],
    quote: 'the first non-system message is forced to be a user message',
    test: () => {
      const { history } = fromGemini([{ role: 'model', parts: [{ text: 'Hello, I am a bot.' }] }]);
      expect(history[0]).toEqual({ role: 'user', content: CONVERSATION_CONTINUES });
      expect(history[1]).toMatchObject({ role: 'assistant' });
    },
  },
  {
    lines: [7],
    quote:
      'IR you build manually with chef.setHistory(...) is NOT sanitized; trust the IR or call ensureValidHistory(messages) yourself.',
    test: async () => {
      const raw: Message[] = [{ role: 'assistant', content: 'I speak first', tool_calls: [call('c9')] }];
      const chef = new ContextChef().setHistory(raw);
      expect(chef.getHistory()).toEqual(raw);
      const sanitised = ensureValidHistory(raw);
      expect(sanitised.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    },
  },
  {
    lines: [9],
    quote: 'import { fromOpenAI, fromAnthropic, fromGemini }',
    test: () => {
      // Each import reads its provider's own format into the same IR conversation.
      const parsed = [
        fromOpenAI(openaiMessages),
        fromAnthropic(anthropicMessages, anthropicSystem),
        fromGemini(geminiContents, systemInstruction),
      ];
      for (const { history } of parsed) {
        expect(history.map((message) => message.role)).toEqual([
          'user',
          'assistant',
          'tool',
          'assistant',
          'user',
        ]);
        const [question, request, result, answer] = history;
        expect(question?.content).toBe('Weather in Oslo?');
        const toolCall = request?.tool_calls?.[0];
        expect(toolCall?.function.name).toBe('get_weather');
        expect(JSON.parse(toolCall?.function.arguments ?? 'null')).toEqual({ city: 'Oslo' });
        expect(result?.tool_call_id).toBe(toolCall?.id);
        expect(result?.content).toContain('sunny');
        expect(answer?.content).toBe('It is sunny.');
      }
    },
  },
  {
    lines: [12, 13],
    quote: 'const { system, history } = fromOpenAI(openaiMessages);',
    test: async () => {
      const { system, history } = fromOpenAI(openaiMessages);
      const chef = new ContextChef().setSystemPrompt(system).setHistory(history);
      const payload = await chef.compile({ target: 'openai' });
      expect(payload.messages).toEqual([
        { role: 'system', content: 'You are a weather bot.' },
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: '', tool_calls: openaiMessages[2]?.tool_calls },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
        { role: 'assistant', content: 'It is sunny.' },
        { role: 'user', content: 'Thanks' },
      ]);
    },
  },
  {
    lines: [16, 17],
    quote: 'const { system, history } = fromAnthropic(anthropicMessages, anthropicSystem);',
    test: async () => {
      const { system, history } = fromAnthropic(anthropicMessages, anthropicSystem);
      const chef = new ContextChef().setSystemPrompt(system).setHistory(history);
      expect([...chef.getSystemPrompt(), ...chef.getHistory()]).toEqual(toolConversation());
      const payload = await chef.compile({ target: 'anthropic' });
      expect(payload.system).toEqual(anthropicSystem);
      expect(payload.messages[1]?.content).toEqual(anthropicMessages[1]?.content);
    },
  },
  {
    lines: [20, 21],
    quote: 'const { system, history } = fromGemini(geminiContents, systemInstruction);',
    test: async () => {
      const { system, history } = fromGemini(geminiContents, systemInstruction);
      const chef = new ContextChef().setSystemPrompt(system).setHistory(history);
      const payload = await chef.compile({ target: 'gemini' });
      expect(payload.systemInstruction).toEqual(systemInstruction);
      expect(payload.messages.map((content) => content.role)).toEqual([
        'user',
        'model',
        'user',
        'model',
        'user',
      ]);
      expect(payload.messages[2]?.parts?.[0]?.functionResponse).toMatchObject({
        name: 'get_weather',
        response: { forecast: 'sunny' },
      });
    },
  },
  {
    lines: [23, 26],
    quote: 'OpenAI image_url / file',
    test: () => {
      const { history } = fromOpenAI([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'a.pdf' } },
          ],
        },
      ]);
      expect(history[0]?.attachments).toMatchObject([
        { mediaType: 'image/png', data: PNG },
        { mediaType: 'application/pdf', data: PDF, filename: 'a.pdf' },
      ]);
    },
  },
  {
    lines: [27],
    quote: 'Anthropic image / document',
    test: () => {
      const { history } = fromAnthropic([
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
          ],
        },
      ]);
      expect(history[0]?.attachments).toMatchObject([
        { mediaType: 'image/png', data: PNG },
        { mediaType: 'application/pdf', data: PDF },
      ]);
    },
  },
  {
    lines: [28],
    quote: 'Gemini inlineData / fileData',
    test: () => {
      const { history } = fromGemini([
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'image/png', data: PNG } },
            { fileData: { mimeType: 'video/mp4', fileUri: 'gs://bucket/clip.mp4' } },
          ],
        },
      ]);
      expect(history[0]?.attachments).toMatchObject([
        { mediaType: 'image/png', data: PNG },
        { mediaType: 'video/mp4', data: 'gs://bucket/clip.mp4' },
      ]);
    },
  },
  {
    lines: [30],
    quote: 'compile() converts attachments back to the corresponding provider format',
    test: async () => {
      const chef = new ContextChef().setHistory([
        { role: 'user', content: 'see', attachments: [{ mediaType: 'image/png', data: PNG }] },
      ]);
      const openai = await chef.compile({ target: 'openai' });
      expect(openai.messages[0]?.content).toContainEqual({
        type: 'image_url',
        image_url: { url: `data:image/png;base64,${PNG}` },
      });
      const anthropic = await chef.compile({ target: 'anthropic' });
      expect(anthropic.messages[0]?.content).toContainEqual({
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: PNG },
      });
      const gemini = await chef.compile({ target: 'gemini' });
      expect(gemini.messages[0]?.parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: PNG } });
      const responses = await chef.compile({ target: 'openai-responses' });
      expect(json(responses.input)).toContain(`"image_url":"data:image/png;base64,${PNG}"`);
    },
  },
  {
    lines: [30],
    quote: 'During compression, Janitor guides the compression model to describe image content.',
    test: async () => {
      // Flotilla's durable equivalent of the Janitor is summarizeHistory.
      const requests: Array<{ messages: Message[]; instructions: string }> = [];
      const history: Message[] = [
        { role: 'user', content: 'what is this?', attachments: [{ mediaType: 'image/png', data: PNG }] },
        { role: 'assistant', content: 'a chart' },
        { role: 'user', content: 'thanks' },
      ];
      await summarizeHistory(history, {
        summarize: async (request) => {
          requests.push(request);
          return 'The user showed a bar chart.';
        },
      });
      expect(requests[0]?.instructions).toBe(SUMMARY_INSTRUCTIONS);
      expect(requests[0]?.instructions).toMatch(
        /Images, documents and other attachments .* describe each one/s,
      );
      expect(requests[0]?.messages[0]?.attachments).toHaveLength(1);
    },
  },
  {
    lines: [35],
    quote: 'Format\tChat Completions\tMessages API\tgenerateContent',
    test: async () => {
      const chef = new ContextChef().setHistory(toolConversation());
      const openai = await chef.compile({ target: 'openai' });
      expect(openai.messages.map((m) => m.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
      ]);
      const anthropic = await chef.compile({ target: 'anthropic' });
      expect(anthropic.messages.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
      ]);
      const gemini = await chef.compile({ target: 'gemini' });
      expect(gemini.messages.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    },
  },
  {
    lines: [36],
    quote: "Cache breakpoints\tStripped\tcache_control: { type: 'ephemeral' }\tStripped",
    test: async () => {
      const chef = new ContextChef()
        .setSystemPrompt([{ role: 'system', content: 'long stable prefix', _cache_breakpoint: true }])
        .setHistory([{ role: 'user', content: 'hi', _cache_breakpoint: true }]);
      const anthropic = await chef.compile({ target: 'anthropic' });
      expect(anthropic.system?.[0]?.cache_control).toEqual({ type: 'ephemeral' });
      expect(json(anthropic.messages)).toContain('"cache_control":{"type":"ephemeral"}');
      for (const target of ['openai', 'gemini'] as const) {
        const payload = await chef.compile({ target });
        expect(json(payload)).not.toMatch(/cache/i);
      }
    },
  },
  {
    lines: [37],
    quote:
      'Prefill (trailing assistant)\tDegraded to [System Note]\tNative support\tDegraded to [System Note]',
    test: async () => {
      const chef = new ContextChef().setHistory([
        { role: 'user', content: 'List three colours as JSON.' },
        { role: 'assistant', content: '["' },
      ]);
      const openai = await chef.compile({ target: 'openai' });
      expect(openai.messages).toHaveLength(1);
      expect(openai.messages[0]?.content).toMatch(/^List three colours as JSON\.\n\n\[System Note\].*"\["/s);
      const anthropic = await chef.compile({ target: 'anthropic' });
      expect(anthropic.messages.at(-1)).toEqual({
        role: 'assistant',
        content: [{ type: 'text', text: '["' }],
      });
      const gemini = await chef.compile({ target: 'gemini' });
      expect(gemini.messages).toHaveLength(1);
      expect(gemini.messages[0]?.parts?.[0]?.text).toMatch(/\[System Note\].*"\["/s);
    },
  },
  {
    lines: [38],
    quote: 'thinking field\tStripped\tMapped to ThinkingBlockParam\tStripped',
    test: async () => {
      const chef = new ContextChef().setHistory([
        { role: 'user', content: 'why?' },
        { role: 'assistant', content: 'because', thinking: { thinking: 'let me see', signature: 'sig' } },
        { role: 'user', content: 'ok' },
      ]);
      const anthropic = await chef.compile({ target: 'anthropic' });
      expect(anthropic.messages[1]?.content).toEqual([
        { type: 'thinking', thinking: 'let me see', signature: 'sig' },
        { type: 'text', text: 'because' },
      ]);
      for (const target of ['openai', 'gemini'] as const) {
        expect(json((await chef.compile({ target })).messages)).not.toContain('let me see');
      }
    },
  },
  {
    lines: [39],
    quote: 'Tool calls\ttool_calls array\ttool_use blocks\tfunctionCall parts',
    test: async () => {
      const chef = new ContextChef().setHistory(toolConversation());
      const openai = await chef.compile({ target: 'openai' });
      expect(openai.messages[2]).toMatchObject({ tool_calls: [call('c1')] });
      const anthropic = await chef.compile({ target: 'anthropic' });
      expect(anthropic.messages[1]?.content).toEqual([
        { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Oslo' } },
      ]);
      const gemini = await chef.compile({ target: 'gemini' });
      expect(gemini.messages[1]?.parts?.[0]?.functionCall).toMatchObject({
        name: 'get_weather',
        args: { city: 'Oslo' },
      });
    },
  },
  {
    lines: [40],
    quote:
      'attachments\timage_url / file content parts\timage / document blocks\tinlineData / fileData parts',
    test: async () => {
      const chef = new ContextChef().setHistory([
        {
          role: 'user',
          content: 'files',
          attachments: [
            { mediaType: 'application/pdf', data: PDF, filename: 'r.pdf' },
            { mediaType: 'image/jpeg', data: 'https://example.com/cat.jpg' },
          ],
        },
      ]);
      const openai = json((await chef.compile({ target: 'openai' })).messages);
      expect(openai).toContain('"type":"file"');
      expect(openai).toContain('"type":"image_url"');
      const anthropic = json((await chef.compile({ target: 'anthropic' })).messages);
      expect(anthropic).toContain('"type":"document"');
      expect(anthropic).toContain('"type":"image"');
      const gemini = json((await chef.compile({ target: 'gemini' })).messages);
      expect(gemini).toContain('"inlineData"');
      expect(gemini).toContain('"fileData"');
    },
  },
  {
    lines: [42],
    quote: 'Adapters are selected automatically by compile({ target }).',
    test: async () => {
      const chef = new ContextChef().setHistory([{ role: 'user', content: 'hi' }]);
      expect(await chef.compile({ target: 'gemini' })).toHaveProperty('messages.0.parts');
      expect(await chef.compile({ target: 'openai-responses' })).toHaveProperty('input');
    },
  },
  {
    lines: [44, 45, 46],
    quote: 'const adapter = getAdapter("gemini");',
    test: () => {
      const adapter = getAdapter('gemini');
      expect(adapter).toBeInstanceOf(GeminiAdapter);
      const payload = adapter.compile([{ role: 'user', content: 'hi' }]);
      expect(payload.messages).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    },
  },
  {
    lines: [50],
    quote: 'produces an OpenAIResponsesPayload { instructions?, input, tools?, meta? }',
    test: async () => {
      const chef = new ContextChef()
        .setSystemPrompt('Be terse.')
        .setHistory([{ role: 'user', content: 'hi' }]);
      const tools = [
        { name: 'lookup', description: 'finds', parameters: { type: 'object', properties: {} } },
      ];
      const payload = await chef.compile({ target: 'openai-responses', tools });
      expect(Object.keys(payload).sort()).toEqual(['input', 'instructions', 'meta', 'tools']);
      expect(payload.instructions).toBe('Be terse.');
      expect(payload.input).toEqual([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      ]);
    },
  },
  {
    lines: [50, 52, 54, 55],
    quote: 'fromOpenAIResponses(items, instructions?) is the matching input adapter',
    test: async () => {
      const chef = new ContextChef().setSystemPrompt('Be terse.').setHistory(toolConversation().slice(1));
      const payload = await chef.compile({ target: 'openai-responses' });
      const { system, history } = fromOpenAIResponses(payload.input, payload.instructions);
      expect([...system, ...history]).toEqual([
        { role: 'system', content: 'Be terse.' },
        ...toolConversation().slice(1),
      ]);
    },
  },
  {
    lines: [57],
    quote: 'message / function_call / function_call_output items (joined by call_id, out-of-order safe)',
    test: () => {
      const { history } = fromOpenAIResponses([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two lookups' }] },
        { type: 'function_call_output', call_id: 'b', output: 'B result' },
        { type: 'function_call', call_id: 'a', name: 'lookup', arguments: '{}' },
        { type: 'function_call', call_id: 'b', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'a', output: 'A result' },
      ]);
      expect(history.map((m) => [m.role, m.tool_call_id, m.content])).toEqual([
        ['user', undefined, 'two lookups'],
        ['assistant', undefined, ''],
        ['tool', 'a', 'A result'],
        ['tool', 'b', 'B result'],
      ]);
    },
  },
  {
    lines: [57],
    quote: "preserves reasoning items' encrypted_content byte-identically",
    test: () => {
      const reasoning = {
        type: 'reasoning',
        id: 'rs_1',
        encrypted_content: 'gAAAA+/==\u2028x',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'hm' }],
      };
      const items = [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
        reasoning,
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: 'ok' },
      ];
      const { system, history } = fromOpenAIResponses(items);
      const payload = new OpenAIResponsesAdapter().compile([...system, ...history]);
      expect(payload.input).toEqual(items);
      expect(json(payload.input[1])).toBe(json(reasoning));
    },
  },
  {
    lines: [57],
    quote: 'converts input_image / input_file parts to IR attachments',
    test: () => {
      const { history } = fromOpenAIResponses([
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
            { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'r.pdf' },
          ],
        },
      ]);
      expect(history[0]?.attachments).toMatchObject([
        { mediaType: 'image/png', data: PNG },
        { mediaType: 'application/pdf', data: PDF, filename: 'r.pdf' },
      ]);
    },
  },
  {
    lines: [61],
    quote:
      'fromGemini captures them — ToolCall.thoughtSignature for functionCall parts, a passthrough field for text parts — and GeminiAdapter re-emits them verbatim',
    test: () => {
      const contents = [
        { role: 'user', parts: [{ text: 'go' }] },
        {
          role: 'model',
          parts: [
            { text: 'calling', thoughtSignature: 'text-sig' },
            { functionCall: { id: 'f1', name: 'probe', args: {} }, thoughtSignature: 'call-sig' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { id: 'f1', name: 'probe', response: { ok: true } } }] },
      ];
      const { history } = fromGemini(contents);
      expect(history[1]?._gemini_thought_signature).toBe('text-sig');
      expect(history[1]?.tool_calls?.[0]?.thoughtSignature).toBe('call-sig');
      expect(new GeminiAdapter().compile(history).messages).toEqual(contents);
    },
  },
  {
    lines: [61],
    quote: "They are immune to compact({ clear: ['thinking'] }).",
    test: () => {
      const history: Message[] = [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'x',
          thinking: { thinking: 'gone soon' },
          _gemini_thought_signature: 'text-sig',
          tool_calls: [{ ...call('f1'), thoughtSignature: 'call-sig' }],
        },
        { role: 'tool', content: '{}', tool_call_id: 'f1' },
      ];
      const compacted = compact(history, { clear: ['thinking'] });
      expect(compacted[1]).not.toHaveProperty('thinking');
      const parts = new GeminiAdapter().compile(compacted).messages[1]?.parts;
      expect(parts?.[0]?.thoughtSignature).toBe('text-sig');
      expect(parts?.[1]?.thoughtSignature).toBe('call-sig');
    },
  },
  {
    lines: [65],
    quote:
      'convert Anthropic-style thinking into a <thinking>...</thinking> text prefix instead of dropping it',
    test: () => {
      const history: Message[] = [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'answer', thinking: { thinking: 'reasoning', signature: 's' } },
        { role: 'user', content: 'ok' },
      ];
      const openai = new OpenAIAdapter({ preserveThinkingAsText: true }).compile(history);
      expect(openai.messages[1]?.content).toBe('<thinking>\nreasoning\n</thinking>\n\nanswer');
      const gemini = new GeminiAdapter({ preserveThinkingAsText: true }).compile(history);
      expect(gemini.messages[1]?.parts?.[0]?.text).toBe('<thinking>\nreasoning\n</thinking>\n\nanswer');
    },
  },
  {
    lines: [65],
    quote: 'redacted_thinking is never textified (dropped, with one warning). Default false.',
    test: () => {
      const history: Message[] = [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'a',
          thinking: { thinking: 'visible' },
          redacted_thinking: { data: 'OPAQUE1' },
        },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: 'b', redacted_thinking: { data: 'OPAQUE2' } },
        { role: 'user', content: 'q3' },
      ];
      for (const adapter of [
        new OpenAIAdapter({ preserveThinkingAsText: true }),
        new GeminiAdapter({ preserveThinkingAsText: true }),
      ]) {
        const payload = adapter.compile(history, { onWarning: () => {} });
        expect(json(payload.messages)).not.toContain('OPAQUE');
        expect(payload.meta.warnings.filter((w) => w.code === 'redacted-thinking-dropped')).toHaveLength(1);
      }
      expect(json(new OpenAIAdapter().compile(history, { onWarning: () => {} }).messages)).not.toContain(
        'visible',
      );
    },
  },
  {
    lines: [69],
    quote: "The three built-ins ('openai' | 'anthropic' | 'gemini') are registered automatically.",
    test: () => {
      // Flotilla registers a fourth, 'openai-responses', as the v4 section says.
      expect(adapterRegistry.list()).toEqual(
        expect.arrayContaining(['openai', 'anthropic', 'gemini', 'openai-responses']),
      );
      expect(adapterRegistry.get('anthropic')).toBeInstanceOf(AnthropicAdapter);
    },
  },
  {
    lines: [69, 71, 73, 74, 75, 76, 77, 79, 80],
    quote: 'implement ITargetAdapter and register it once',
    test: async () => {
      const cohere = new CohereAdapter();
      adapterRegistry.register('cohere', cohere, SOURCE);
      const chef = new ContextChef().setHistory([{ role: 'user', content: 'hi' }]);
      const payload = await chef.compile({ target: 'cohere' });
      expect(payload).toMatchObject({ chat_history: [{ role: 'USER', message: 'hi' }] });
      expect(cohere.seen).toHaveLength(1);
    },
  },
  {
    lines: [82, 85],
    quote: 'Built-in literal\tcompile({ target: "openai" })\tStrict payload type via the type overloads',
    test: async () => {
      const payload = await new ContextChef()
        .setHistory([{ role: 'user', content: 'hi' }])
        .compile({ target: 'openai' });
      expectTypeOf(payload).toMatchTypeOf<OpenAIPayload>();
      expectTypeOf(payload.messages).toEqualTypeOf<OpenAIPayload['messages']>();
      expect(payload.messages).toEqual([{ role: 'user', content: 'hi' }]);
    },
  },
  {
    lines: [86],
    quote: 'Registered name\tcompile({ target: "cohere" })\tReuse the same custom adapter many times',
    test: async () => {
      const cohere = new CohereAdapter();
      adapterRegistry.register('cohere', cohere, SOURCE);
      const first = new ContextChef().setHistory([{ role: 'user', content: 'a' }]);
      const second = new ContextChef().setHistory([{ role: 'user', content: 'b' }]);
      await first.compile({ target: 'cohere' });
      await second.compile({ target: 'cohere' });
      await first.compile({ target: 'cohere' });
      expect(cohere.seen.map((messages) => messages[0]?.content)).toEqual(['a', 'b', 'a']);
    },
  },
  {
    lines: [87],
    quote:
      'ITargetAdapter\tcompile({ target: new MyAdapter() })\tOne-off use / tests — bypasses the registry',
    test: async () => {
      const before = adapterRegistry.list();
      const payload = await new ContextChef().compile({ target: new CohereAdapter() });
      expectTypeOf(payload).toHaveProperty('chat_history');
      expect(payload).toHaveProperty('chat_history', []);
      expect(adapterRegistry.list()).toEqual(before);
    },
  },
  {
    lines: [89, 91, 92],
    quote: 'const chef = new ContextChef({ defaultTarget: "anthropic" });',
    test: async () => {
      const chef = new ContextChef({ defaultTarget: 'anthropic' }).setSystemPrompt('sys');
      const payload = await chef.compile();
      expectTypeOf(payload).toMatchTypeOf<AnthropicPayload>();
      expect(payload.system).toEqual([{ type: 'text', text: 'sys' }]);
    },
  },
  {
    lines: [94],
    quote:
      "Resolution order in compile(): options.target → ChefConfig.defaultTarget → 'openai' (final built-in fallback).",
    test: async () => {
      const history: Message[] = [{ role: 'user', content: 'hi' }];
      const withDefault = new ContextChef({ defaultTarget: 'gemini' }).setHistory(history);
      expect(await withDefault.compile({ target: 'openai-responses' })).toHaveProperty('input');
      expect(await withDefault.compile()).toHaveProperty('messages', [
        { role: 'user', parts: [{ text: 'hi' }] },
      ]);
      expect(await new ContextChef().setHistory(history).compile()).toHaveProperty('messages', [
        { role: 'user', content: 'hi' },
      ]);
    },
  },
  {
    lines: [96, 98, 99, 100, 101],
    quote: 'pass a sourceId so a batch of registrations can be torn down together',
    test: () => {
      adapterRegistry.register('cohere', new CohereAdapter(), 'my-plugin');
      adapterRegistry.register('mistral', new CohereAdapter(), 'my-plugin');
      adapterRegistry.register('seed-keeper', new CohereAdapter(), SOURCE);
      adapterRegistry.unregisterBySource('my-plugin');
      expect(adapterRegistry.has('cohere')).toBe(false);
      expect(adapterRegistry.has('mistral')).toBe(false);
      expect(adapterRegistry.has('seed-keeper')).toBe(true);
      expect(adapterRegistry.has('openai')).toBe(true);
    },
  },
  {
    lines: [103],
    quote:
      "Replacing a built-in name (e.g. register('openai', myFork)) keeps the strict overload's payload return type",
    test: async () => {
      const original = adapterRegistry.get('openai');
      const fork: ITargetAdapter<OpenAIPayload> = {
        compile: (messages) => ({
          messages: messages.map((m) => ({ role: 'user' as const, content: `[fork] ${m.content}` })),
          meta: { warnings: [] },
        }),
      };
      try {
        adapterRegistry.register('openai', fork);
        const payload = await new ContextChef()
          .setHistory([{ role: 'user', content: 'hi' }])
          .compile({ target: 'openai' });
        expectTypeOf(payload).toMatchTypeOf<OpenAIPayload>();
        expect(payload.messages).toEqual([{ role: 'user', content: '[fork] hi' }]);
      } finally {
        adapterRegistry.register('openai', original, 'builtin');
      }
    },
  },
];

describe('seed ir-adapters.txt', () => {
  for (const promise of promises) {
    it(`line ${promise.lines.join('+')}: ${promise.quote}`, promise.test);
  }

  it('has a test for every line that promises something', () => {
    const covered = new Set([...NOT_PROMISES, ...promises.flatMap((promise) => promise.lines)]);
    const uncovered = SEED.flatMap((line, index) =>
      line.trim() !== '' && !covered.has(index + 1) ? [`${index + 1}: ${line}`] : [],
    );
    expect(uncovered).toEqual([]);
  });

  it('quotes each promise from the lines it claims', () => {
    const misquoted = promises.filter(
      ({ lines, quote }) =>
        !lines
          .map((line) => SEED[line - 1] ?? '')
          .join('\n')
          .includes(quote),
    );
    expect(misquoted.map((promise) => promise.quote)).toEqual([]);
  });
});

// Keeps the custom adapter honest against the loose payload contract.
expectTypeOf<ReturnType<CohereAdapter['compile']>>().toMatchTypeOf<TargetPayload>();
