import { afterEach, describe, expect, it } from 'vitest';
import {
  AdapterRegistry,
  AnthropicAdapter,
  adapterRegistry,
  CONVERSATION_CONTINUES,
  ContextChef,
  compact,
  compactHistory,
  ensureValidHistory,
  fromAnthropic,
  fromGemini,
  fromOpenAI,
  fromOpenAIResponses,
  GeminiAdapter,
  type ITargetAdapter,
  type Message,
  MISSING_TOOL_RESULT,
  OpenAIAdapter,
  OpenAIResponsesAdapter,
  planCompaction,
  summarizeHistory,
  TOOL_RESULT_CLEARED,
  UnknownTargetError,
} from '../index.js';
import { recordingSummarizer } from '../testing/recording-summarizer.js';
import { PDF, PNG } from '../testing/sample-media.js';
import { toolCall } from '../testing/tool-call.js';

/**
 * The 50 behaviours ContextChef's own tests pin (contextchef-spec §11), restated for Flotilla's
 * IR: one test per behaviour, numbered as in the spec. Where Flotilla deliberately differs (the
 * spec's [rec] items, or a module Flotilla does not have), the title says what we do instead.
 */

const SOURCE = 'contextchef-behaviours';
afterEach(() => adapterRegistry.unregisterBySource(SOURCE));

const call = (id: string, name = 'lookup', args = '{"q":"x"}') => toolCall(id, name, args);
const quiet = { onWarning: () => {} };
const openai = (messages: Message[]) => new OpenAIAdapter().compile(messages, quiet);
const anthropic = (messages: Message[]) => new AnthropicAdapter().compile(messages, quiet);
const gemini = (messages: Message[]) => new GeminiAdapter().compile(messages, quiet);
const responses = (messages: Message[]) => new OpenAIResponsesAdapter().compile(messages, quiet);

/** A summariser that records its requests and answers with `answer`. */
const summariser = recordingSummarizer;

function turns(count: number): Message[] {
  return Array.from({ length: count }, (_, index): Message[] => [
    { role: 'user', content: `question ${index}` },
    { role: 'assistant', content: `answer ${index}` },
  ]).flat();
}

describe('sanitiser (ensureValidHistory)', () => {
  it('1: empty in gives empty out, a valid history comes back equal, and the input is not mutated', () => {
    expect(ensureValidHistory([])).toEqual([]);
    const history: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', content: 'r', tool_call_id: 'c1' },
    ];
    const copy = structuredClone(history);
    expect(ensureValidHistory(history)).toEqual(copy);
    expect(history).toEqual(copy);
  });

  it('2: a tool result no earlier assistant declared is removed; if nothing is left, one user placeholder remains', () => {
    expect(
      ensureValidHistory([
        { role: 'user', content: 'q' },
        { role: 'tool', content: 'stray', tool_call_id: 'ghost' },
      ]),
    ).toEqual([{ role: 'user', content: 'q' }]);
    expect(ensureValidHistory([{ role: 'tool', content: 'stray', tool_call_id: 'ghost' }])).toEqual([
      { role: 'user', content: CONVERSATION_CONTINUES },
    ]);
  });

  it('3: a declared call without a result gets a placeholder result; with parallel calls only the missing one', () => {
    const result = ensureValidHistory([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
      { role: 'tool', content: 'B', tool_call_id: 'b' },
    ]);
    const tools = result.filter((message) => message.role === 'tool');
    expect(tools).toEqual([
      { role: 'tool', tool_call_id: 'a', content: MISSING_TOOL_RESULT, name: 'lookup' },
      { role: 'tool', content: 'B', tool_call_id: 'b' },
    ]);
  });

  it('4: a leading assistant (after system messages) gets a user placeholder before it; a leading user changes nothing', () => {
    const result = ensureValidHistory([
      { role: 'system', content: 's' },
      { role: 'assistant', content: 'hello' },
    ]);
    expect(result.map((message) => [message.role, message.content])).toEqual([
      ['system', 's'],
      ['user', CONVERSATION_CONTINUES],
      ['assistant', 'hello'],
    ]);
    const fine: Message[] = [{ role: 'user', content: 'q' }];
    expect(ensureValidHistory(fine)).toEqual(fine);
  });
});

describe('openai target and fromOpenAI', () => {
  it('5: system, user and assistant text pass through in order; cache flags and thinking never appear', () => {
    const payload = openai([
      { role: 'system', content: 's', _cache_breakpoint: true },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: 'a', thinking: { thinking: 't', signature: 'x' } },
      { role: 'user', content: 'u2' },
    ]);
    expect(payload.messages).toEqual([
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'u2' },
    ]);
  });

  it('6: tool calls and tool_call_id are kept', () => {
    const payload = openai([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', content: 'r', tool_call_id: 'c1', name: 'lookup' },
    ]);
    expect(payload.messages[1]).toEqual({ role: 'assistant', content: '', tool_calls: [call('c1')] });
    expect(payload.messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'r' });
  });

  it('7: a trailing assistant without tool calls is removed and becomes a MUST-start-verbatim note in the last user text', () => {
    const payload = openai([
      { role: 'user', content: 'Say hi' },
      { role: 'assistant', content: 'Hi' },
    ]);
    expect(payload.messages).toHaveLength(1);
    const content = String(payload.messages[0]?.content);
    expect(content.startsWith('Say hi\n\n')).toBe(true);
    expect(content).toContain('MUST start verbatim');
    expect(content).toContain('"Hi"');
  });

  it('8: a trailing tool-call turn or non-assistant is left alone; empty in gives empty out; without a user the note goes to the system message', () => {
    const toolTurn: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
    ];
    expect(openai(toolTurn).messages).toHaveLength(2);
    expect(openai([]).messages).toEqual([]);
    const noUser = openai([
      { role: 'system', content: 'rules' },
      { role: 'assistant', content: 'Sure' },
    ]);
    expect(noUser.messages).toHaveLength(1);
    expect(noUser.messages[0]).toMatchObject({ role: 'system' });
    expect(String(noUser.messages[0]?.content)).toMatch(/^rules\n\n.*MUST start verbatim.*"Sure"/s);
  });

  it('9: an image becomes [text, image_url], a PDF a file part with file_data and filename, mixed media 3 parts, no media a plain string', () => {
    const image = openai([
      { role: 'user', content: 'see', attachments: [{ mediaType: 'image/png', data: PNG }] },
    ]);
    expect(image.messages[0]?.content).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
    const pdf = openai([
      {
        role: 'user',
        content: 'read',
        attachments: [{ mediaType: 'application/pdf', data: PDF, filename: 'r.pdf' }],
      },
    ]);
    expect(pdf.messages[0]?.content).toContainEqual({
      type: 'file',
      file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'r.pdf' },
    });
    const mixed = openai([
      {
        role: 'user',
        content: 'both',
        attachments: [
          { mediaType: 'image/png', data: PNG },
          { mediaType: 'application/pdf', data: PDF },
        ],
      },
    ]);
    expect(mixed.messages[0]?.content).toHaveLength(3);
    expect(openai([{ role: 'user', content: 'plain' }]).messages[0]?.content).toBe('plain');
  });

  it('10: payloads are plain JSON data: output fields are whitelisted, so passthrough values such as Dates never reach them', () => {
    const payload = openai([{ role: 'user', content: 'q', when: new Date(0), _custom: { deep: true } }]);
    expect(payload.messages).toEqual([{ role: 'user', content: 'q' }]);
    expect(JSON.parse(JSON.stringify(payload))).toEqual(payload);
  });

  it('11: fromOpenAI splits system off, reads media types from data URLs (guesses others), joins text parts with \\n, adds no empty attachments', () => {
    const { system, history } = fromOpenAI([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
          { type: 'image_url', image_url: { url: `data:image/webp;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/picture' } },
        ],
      },
      { role: 'assistant', content: 'plain' },
    ]);
    expect(system).toEqual([{ role: 'system', content: 'sys' }]);
    expect(history[0]?.content).toBe('a\nb');
    expect(history[0]?.attachments).toMatchObject([
      { mediaType: 'image/webp', data: PNG },
      { mediaType: 'image/*', data: 'https://example.com/picture' },
    ]);
    expect(history[1]).not.toHaveProperty('attachments');
  });

  it('12: fromOpenAI drops orphan tool messages and adds placeholders for missing results', () => {
    const { history } = fromOpenAI([
      { role: 'user', content: 'q' },
      { role: 'tool', tool_call_id: 'ghost', content: 'x' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    ]);
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['user', 'q'],
      ['assistant', ''],
      ['tool', MISSING_TOOL_RESULT],
    ]);
  });
});

describe('anthropic target and fromAnthropic', () => {
  it('13: system messages become system text blocks in order (no key when none); user and assistant map directly', () => {
    const payload = anthropic([
      { role: 'system', content: 'one' },
      { role: 'system', content: 'two' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: 'a' },
    ]);
    expect(payload.system).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect(payload.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(anthropic([{ role: 'user', content: 'u' }])).not.toHaveProperty('system');
  });

  it('14: a tool message becomes a user message with one tool_result block; a missing id becomes an empty string', () => {
    const payload = anthropic([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', content: 'r', tool_call_id: 'c1' },
    ]);
    expect(payload.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'r' }],
    });
    const noId = anthropic([{ role: 'tool', content: 'r' }]);
    expect(noId.messages[0]?.content).toEqual([{ type: 'tool_result', tool_use_id: '', content: 'r' }]);
  });

  it('15: tool calls become a text block only when there is text (the API rejects empty ones), then tool_use blocks with parsed input in call order', () => {
    const payload = anthropic([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('a', 'f', '{"n":1}'), call('b', 'g', '{"n":2}')] },
      { role: 'tool', content: '1', tool_call_id: 'a' },
      { role: 'tool', content: '2', tool_call_id: 'b' },
      { role: 'assistant', content: 'again', tool_calls: [call('c')] },
    ]);
    expect(payload.messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'a', name: 'f', input: { n: 1 } },
      { type: 'tool_use', id: 'b', name: 'g', input: { n: 2 } },
    ]);
    expect(payload.messages[3]?.content).toEqual([
      { type: 'text', text: 'again' },
      { type: 'tool_use', id: 'c', name: 'lookup', input: { q: 'x' } },
    ]);
  });

  it('16: _cache_breakpoint puts an ephemeral cache_control on the system block and on the message block, and nowhere without the flag', () => {
    const payload = anthropic([
      { role: 'system', content: 's', _cache_breakpoint: true },
      { role: 'user', content: 'cached', _cache_breakpoint: true },
      { role: 'assistant', content: 'not cached' },
    ]);
    expect(payload.system?.[0]).toEqual({ type: 'text', text: 's', cache_control: { type: 'ephemeral' } });
    expect(payload.messages[0]?.content).toEqual([
      { type: 'text', text: 'cached', cache_control: { type: 'ephemeral' } },
    ]);
    expect(JSON.stringify(payload.messages[1])).not.toContain('cache_control');
  });

  it('17: a full tool conversation alternates user, assistant, user(tool_result), assistant, user', () => {
    const payload = anthropic([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', content: 'r', tool_call_id: 'c1' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(payload.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(JSON.stringify(payload.messages[2])).toContain('tool_result');
  });

  it('18: fromAnthropic turns system blocks into system messages, accepts string content, and keeps images, documents and image-only messages', () => {
    const { system, history } = fromAnthropic(
      [
        { role: 'user', content: 'plain string' },
        { role: 'assistant', content: 'ok' },
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/picture' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
          ],
        },
      ],
      [{ type: 'text', text: 'sys' }],
    );
    expect(system).toEqual([{ role: 'system', content: 'sys' }]);
    expect(history[0]).toEqual({ role: 'user', content: 'plain string' });
    expect(history[2]?.content).toBe('');
    expect(history[2]?.attachments).toMatchObject([
      { mediaType: 'image/png', data: PNG },
      { mediaType: 'image/*', data: 'https://example.com/picture' },
      { mediaType: 'application/pdf', data: PDF },
    ]);
  });

  it('19: fromAnthropic maps tool_use to a call with JSON arguments, tool_result to its own tool message, thinking and redacted thinking, and adds placeholders', () => {
    const { history } = fromAnthropic([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } },
          { type: 'tool_use', id: 't2', name: 'g', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'done' },
          { type: 'text', text: 'next' },
        ],
      },
    ]);
    expect(history[1]).toMatchObject({
      thinking: { thinking: 'plan', signature: 'sig' },
      redacted_thinking: { data: 'opaque' },
      tool_calls: [call('t1', 'f', '{"a":1}'), call('t2', 'g', '{}')],
    });
    expect(history.slice(2).map((m) => [m.role, m.tool_call_id, m.content])).toEqual([
      ['tool', 't2', MISSING_TOOL_RESULT],
      ['tool', 't1', 'done'],
      ['user', undefined, 'next'],
    ]);
  });

  it('20: attachments go out as base64 image blocks, url image sources and PDF document blocks, after the text block', () => {
    const payload = anthropic([
      {
        role: 'user',
        content: 'look',
        attachments: [
          { mediaType: 'image/png', data: PNG },
          { mediaType: 'image/jpeg', data: 'https://example.com/a.jpg' },
          { mediaType: 'application/pdf', data: PDF },
        ],
      },
    ]);
    expect(payload.messages[0]?.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
    ]);
  });
});

describe('thinking', () => {
  it('21: Anthropic puts signed thinking, then redacted thinking, then text, then tool_use; unsigned thinking is dropped with a warning (the API rejects it)', () => {
    const warnings: string[] = [];
    const payload = new AnthropicAdapter().compile(
      [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'text',
          thinking: { thinking: 't', signature: 's' },
          redacted_thinking: { data: 'r' },
          tool_calls: [call('c1')],
        },
        { role: 'tool', content: 'ok', tool_call_id: 'c1' },
        { role: 'assistant', content: 'unsigned', thinking: { thinking: 'from another provider' } },
      ],
      { onWarning: (warning) => warnings.push(warning.code) },
    );
    expect(payload.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 't', signature: 's' },
      { type: 'redacted_thinking', data: 'r' },
      { type: 'text', text: 'text' },
      { type: 'tool_use', id: 'c1', name: 'lookup', input: { q: 'x' } },
    ]);
    expect(payload.messages[3]?.content).toEqual([{ type: 'text', text: 'unsigned' }]);
    expect(warnings).toContain('thinking-unsigned-dropped');
  });

  it('22: OpenAI strips thinking; Gemini drops it and sends no thought part, with or without tool calls', () => {
    const history: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', thinking: { thinking: 'secret plan' } },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: '', thinking: { thinking: 'secret plan' }, tool_calls: [call('c1')] },
      { role: 'tool', content: '{}', tool_call_id: 'c1' },
    ];
    expect(JSON.stringify(openai(history))).not.toContain('secret plan');
    const geminiJson = JSON.stringify(gemini(history));
    expect(geminiJson).not.toContain('secret plan');
    expect(geminiJson).not.toContain('"thought"');
  });
});

describe('gemini target and fromGemini', () => {
  it('23: system messages go to systemInstruction.parts (absent when none) and assistant becomes model', () => {
    const payload = gemini([
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'u2' },
    ]);
    expect(payload.systemInstruction).toEqual({ parts: [{ text: 's' }] });
    expect(payload.messages.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(gemini([{ role: 'user', content: 'u' }])).not.toHaveProperty('systemInstruction');
  });

  it('24: tool calls become functionCall parts with parsed args, after a text part only when there is text, in call order', () => {
    const payload = gemini([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('a', 'f', '{"n":1}'), call('b', 'g', '{"n":2}')] },
      { role: 'tool', content: '{}', tool_call_id: 'a' },
      { role: 'tool', content: '{}', tool_call_id: 'b' },
      { role: 'assistant', content: 'more', tool_calls: [call('c')] },
    ]);
    expect(payload.messages[1]?.parts).toEqual([
      { functionCall: { id: 'a', name: 'f', args: { n: 1 } } },
      { functionCall: { id: 'b', name: 'g', args: { n: 2 } } },
    ]);
    expect(payload.messages[3]?.parts?.[0]).toEqual({ text: 'more' });
  });

  it('25: a tool message becomes a user functionResponse: JSON objects as is, other text as {result}, named after its call (else its name, else its id)', () => {
    const payload = gemini([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('a', 'weather'), call('b', 'echo')] },
      { role: 'tool', content: '{"temp":3}', tool_call_id: 'a' },
      { role: 'tool', content: 'plain words', tool_call_id: 'b' },
    ]);
    expect(payload.messages[2]?.parts).toEqual([
      { functionResponse: { id: 'a', name: 'weather', response: { temp: 3 } } },
      { functionResponse: { id: 'b', name: 'echo', response: { result: 'plain words' } } },
    ]);
    const orphan = gemini([{ role: 'tool', content: '{}', tool_call_id: 'lonely' }]);
    expect(orphan.messages[0]?.parts?.[0]?.functionResponse?.name).toBe('lonely');
  });

  it('26: _cache_breakpoint is dropped silently (no cache_control anywhere)', () => {
    const payload = new GeminiAdapter().compile([{ role: 'user', content: 'u', _cache_breakpoint: true }], {
      onWarning: () => {
        throw new Error('no warning expected');
      },
    });
    expect(JSON.stringify(payload)).not.toContain('cache');
  });

  it('27: a prefill becomes a note in the last user text; a model turn with a functionCall is not a prefill', () => {
    const prefill = gemini([
      { role: 'user', content: 'Answer' },
      { role: 'assistant', content: 'Yes' },
    ]);
    expect(prefill.messages).toHaveLength(1);
    expect(prefill.messages[0]?.parts?.[0]?.text).toMatch(/^Answer\n\n.*MUST start verbatim.*"Yes"/s);
    const calling = gemini([
      { role: 'user', content: 'Answer' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
    ]);
    expect(calling.messages.map((c) => c.role)).toEqual(['user', 'model']);
  });

  it('28: parallel results become one content of N responses, adjacent same-role contents merge in order after prefill handling, and the input is not mutated', () => {
    const history: Message[] = [
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'user', content: 'three' },
      { role: 'assistant', content: 'x' },
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
      { role: 'tool', content: '{}', tool_call_id: 'a' },
      { role: 'tool', content: '{}', tool_call_id: 'b' },
      { role: 'assistant', content: 'prefill' },
    ];
    const copy = structuredClone(history);
    const payload = gemini(history);
    expect(payload.messages.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(payload.messages[0]?.parts?.map((part) => part.text)).toEqual([
      'one',
      'two',
      expect.stringMatching(/^three\n\n.*"prefill"/s),
    ]);
    expect(payload.messages[1]?.parts).toHaveLength(3);
    expect(payload.messages[2]?.parts?.map((part) => part.functionResponse?.id)).toEqual(['a', 'b']);
    expect(history).toEqual(copy);
  });

  it('29: fromGemini reads media, maps model to assistant, numbers calls gemini-fc-<name>-<n> across the conversation, pairs responses FIFO by name and adds placeholders', () => {
    const { history } = fromGemini([
      {
        role: 'user',
        parts: [
          { text: 'see' },
          { inlineData: { mimeType: 'image/png', data: PNG } },
          { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/r.pdf' } },
        ],
      },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'f', args: {} } }, { functionCall: { name: 'f', args: { i: 2 } } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'f', response: { n: 1 } } },
          { functionResponse: { name: 'f', response: { n: 2 } } },
        ],
      },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'f', args: {} } }, { functionCall: { name: 'g', args: {} } }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'g', response: {} } }] },
    ]);
    expect(history[0]?.attachments).toMatchObject([
      { mediaType: 'image/png', data: PNG },
      { mediaType: 'application/pdf', data: 'gs://b/r.pdf' },
    ]);
    expect(history[1]?.role).toBe('assistant');
    expect(history[1]?.tool_calls?.map((c) => c.id)).toEqual(['gemini-fc-f-0', 'gemini-fc-f-1']);
    expect(history.slice(2, 4).map((m) => [m.tool_call_id, m.content])).toEqual([
      ['gemini-fc-f-0', '{"n":1}'],
      ['gemini-fc-f-1', '{"n":2}'],
    ]);
    expect(history[4]?.tool_calls?.map((c) => c.id)).toEqual(['gemini-fc-f-2', 'gemini-fc-g-0']);
    expect(history.slice(5).map((m) => [m.tool_call_id, m.content])).toEqual([
      ['gemini-fc-f-2', MISSING_TOOL_RESULT],
      ['gemini-fc-g-0', '{}'],
    ]);
  });
});

describe('registry and target resolution', () => {
  const stub = (): ITargetAdapter => ({ compile: () => ({ messages: [] }) });

  it('30: register/get return the same instance, re-registering overwrites, has/unregister work (unknown is a no-op), list keeps order, unregisterBySource removes only its entries', () => {
    const registry = new AdapterRegistry();
    const first = stub();
    const second = stub();
    registry.register('a', first, 'plugin').register('b', stub()).register('c', stub(), 'plugin');
    expect(registry.get('a')).toBe(first);
    registry.register('a', second, 'plugin');
    expect(registry.get('a')).toBe(second);
    expect(registry.has('b')).toBe(true);
    expect(registry.unregister('nothing')).toBe(false);
    expect(registry.list()).toEqual(['a', 'b', 'c']);
    registry.unregisterBySource('plugin');
    expect(registry.list()).toEqual(['b']);
  });

  it('31: an unknown target names itself and the registered list, or (none); built-ins survive clearing other sources', () => {
    const registry = new AdapterRegistry();
    expect(() => registry.get('x')).toThrow('Unknown adapter target: "x". Registered: (none).');
    registry.register('a', stub()).register('b', stub());
    expect(() => registry.get('x')).toThrow('Registered: [a, b].');
    adapterRegistry.register('temporary', stub(), SOURCE);
    adapterRegistry.unregisterBySource(SOURCE);
    expect(adapterRegistry.list()).toEqual(
      expect.arrayContaining(['openai', 'anthropic', 'gemini', 'openai-responses']),
    );
  });

  it('32: compile resolves options.target, then defaultTarget (name or instance), then openai; instances bypass the registry; an unregistered openai fallback rejects the same way', async () => {
    const marker = (label: string): ITargetAdapter => ({ compile: () => ({ label }) });
    adapterRegistry.register('named-default', marker('named'), SOURCE);
    expect(await new ContextChef({ defaultTarget: 'named-default' }).compile()).toHaveProperty(
      'label',
      'named',
    );
    expect(await new ContextChef({ defaultTarget: marker('instance') }).compile()).toHaveProperty(
      'label',
      'instance',
    );
    expect(
      await new ContextChef({ defaultTarget: 'named-default' }).compile({ target: marker('option') }),
    ).toHaveProperty('label', 'option');
    await expect(new ContextChef().compile({ target: 'not-registered' })).rejects.toSatisfy(
      UnknownTargetError.is,
    );
    const builtin = adapterRegistry.get('openai');
    adapterRegistry.unregister('openai');
    try {
      await expect(new ContextChef().compile()).rejects.toThrow('Unknown adapter target: "openai"');
    } finally {
      adapterRegistry.register('openai', builtin, 'builtin');
    }
  });
});

describe('snapshot / restore', () => {
  it('33: a snapshot captures the system prompt, history and a named default target, with a schema version (Flotilla keeps no other chef state)', () => {
    const snapshot = new ContextChef({ defaultTarget: 'gemini' })
      .setSystemPrompt('s')
      .setHistory([{ role: 'user', content: 'u' }])
      .snapshot();
    expect(snapshot).toEqual({
      schemaVersion: 1,
      system: [{ role: 'system', content: 's' }],
      history: [{ role: 'user', content: 'u' }],
      defaultTarget: 'gemini',
    });
  });

  it('34: snapshots are isolated both ways (tool calls, thinking included), restore returns the chef and can be repeated', () => {
    const history: Message[] = [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [call('c1')],
        thinking: { thinking: 't', signature: 's' },
      },
      { role: 'tool', content: 'r', tool_call_id: 'c1' },
    ];
    const chef = new ContextChef().setHistory(history);
    const snapshot = chef.snapshot();
    history[1]?.tool_calls?.push(call('c2'));
    const thinking = history[1]?.thinking;
    if (thinking) thinking.thinking = 'mutated';
    expect(snapshot.history[1]?.tool_calls).toHaveLength(1);
    expect(snapshot.history[1]?.thinking?.thinking).toBe('t');
    const target = new ContextChef();
    expect(target.restore(snapshot)).toBe(target);
    target.getHistory()[1]?.tool_calls?.push(call('c3'));
    expect(new ContextChef().restore(snapshot).getHistory()[1]?.tool_calls).toHaveLength(1);
  });

  it('35: a snapshot survives being stored as a JSON string and restored by another chef (Flotilla keeps memory in Redis, not in the chef)', async () => {
    const original = new ContextChef({ defaultTarget: 'anthropic' })
      .setSystemPrompt('s')
      .setHistory([{ role: 'user', content: 'u', attachments: [{ mediaType: 'image/png', data: PNG }] }]);
    const restored = ContextChef.fromSnapshot(JSON.parse(JSON.stringify(original.snapshot())));
    expect(await restored.compile()).toEqual(await original.compile());
  });
});

describe('compact', () => {
  const history: Message[] = [
    { role: 'user', content: 'q' },
    { role: 'assistant', content: '', tool_calls: [call('c1')], thinking: { thinking: 't' } },
    { role: 'tool', content: 'big result 1', tool_call_id: 'c1' },
    { role: 'assistant', content: '', tool_calls: [call('c2')] },
    { role: 'tool', content: 'big result 2', tool_call_id: 'c2' },
  ];

  it("36: a cleared tool result becomes the placeholder, keeping its id and the call arguments; other roles are untouched; no mutation; empty lists are no-ops (ContextChef's 'tool-result' spelling works too)", () => {
    const copy = structuredClone(history);
    const result = compact(history, { clear: ['tool-results'] });
    expect(compact(history, { clear: ['tool-result'] })).toEqual(result);
    expect(result[2]).toEqual({ role: 'tool', content: TOOL_RESULT_CLEARED, tool_call_id: 'c1' });
    expect(result[1]).toBe(history[1]);
    expect(history).toEqual(copy);
    expect(compact([], { clear: ['tool-results'] })).toEqual([]);
    expect(compact(history, { clear: [] })).toBe(history);
  });

  it('37: keepRecent keeps the last N results (0 floors to 1, N above the count is a no-op); thinking clears both thinking fields and keeps content', () => {
    const contents = (list: Message[]) => list.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(contents(compact(history, { clear: [{ target: 'tool-results', keepRecent: 0 }] }))).toEqual([
      TOOL_RESULT_CLEARED,
      'big result 2',
    ]);
    expect(compact(history, { clear: [{ target: 'tool-results', keepRecent: 5 }] })).toBe(history);
    const thinned = compact(
      [{ role: 'assistant', content: 'kept', thinking: { thinking: 't' }, redacted_thinking: { data: 'r' } }],
      { clear: ['thinking'] },
    );
    expect(thinned).toEqual([{ role: 'assistant', content: 'kept' }]);
  });
});

describe('summarising compaction (Flotilla: summarizeHistory, caller-owned and durable)', () => {
  it('38: compression replaces the older turns with one user summary message and keeps the recent turns verbatim', async () => {
    const history = turns(3);
    const { summarize } = summariser();
    const result = await summarizeHistory(history, { summarize, keepRecentTurns: 2 });
    expect(result.history).toHaveLength(3);
    expect(result.history[0]).toMatchObject({ role: 'user' });
    expect(result.history[0]?.content).toContain('earlier talk');
    expect(result.history.slice(1)).toEqual(history.slice(4));
  });

  it('39: by default only the last turn is kept, and keepRecentTurns counts turns, not messages', async () => {
    const history: Message[] = [
      ...turns(1),
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
      { role: 'tool', content: 'A', tool_call_id: 'a' },
      { role: 'tool', content: 'B', tool_call_id: 'b' },
    ];
    const byDefault = await summarizeHistory(history, summariser());
    expect(byDefault.history.slice(1)).toEqual(history.slice(2));
    const two = await summarizeHistory(history, { ...summariser(), keepRecentTurns: 2 });
    expect(two.history.slice(1)).toEqual(history.slice(1));
  });

  it('40: a failed summary leaves the history unchanged so the caller can retry (Flotilla keeps no in-process breaker)', async () => {
    const history = turns(2);
    let attempts = 0;
    const flaky = async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('model overloaded');
      return 'recap';
    };
    await expect(summarizeHistory(history, { summarize: flaky })).rejects.toThrow('model overloaded');
    expect(history).toEqual(turns(2));
    const retry = await summarizeHistory(history, { summarize: flaky });
    expect(retry.summary?.content).toContain('recap');
  });

  it('41: the result reports the summary message and exactly the messages it replaced (like onCompress)', async () => {
    const history = turns(2);
    const result = await summarizeHistory(history, summariser());
    expect(result.replaced).toEqual(history.slice(0, 3));
    expect(result.summary).toBe(result.history[0]);
  });

  it('42: the split never orphans tool results: parallel calls and their results move as one unit', async () => {
    const history: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
      { role: 'tool', content: 'A', tool_call_id: 'a' },
      { role: 'tool', content: 'B', tool_call_id: 'b' },
      { role: 'assistant', content: 'done' },
    ];
    for (const keepRecentTurns of [0, 1, 2, 3]) {
      const result = await summarizeHistory(history, { ...summariser(), keepRecentTurns });
      expect(ensureValidHistory(result.history)).toEqual(result.history);
      expect(result.replaced.filter((m) => m.role === 'tool')).toHaveLength(
        result.replaced.some((m) => m.tool_calls) ? 2 : 0,
      );
    }
  });

  it("43: with media: 'placeholder' the summarised slice shows [image: photo.png] / [document] / [attachment]; kept messages keep their media; nothing is mutated; tool results over toolResultStubThreshold are stubbed only in what the summariser reads, the name falling back to unknown", async () => {
    const history: Message[] = [
      {
        role: 'user',
        content: 'look',
        attachments: [
          { mediaType: 'image/png', data: PNG, filename: 'photo.png' },
          { mediaType: 'application/pdf', data: PDF },
          { mediaType: '', data: 'x' },
        ],
      },
      { role: 'assistant', content: 'seen' },
      { role: 'user', content: 'again', attachments: [{ mediaType: 'image/png', data: PNG }] },
    ];
    const copy = structuredClone(history);
    const { requests, summarize } = summariser();
    const result = await summarizeHistory(history, { summarize, media: 'placeholder' });
    expect(requests[0]?.messages[0]?.content).toBe('[image: photo.png]\n[document]\n[attachment]\nlook');
    expect(result.history.at(-1)?.attachments).toHaveLength(1);
    expect(history).toEqual(copy);
    const stubbed: Message[] = [
      { role: 'user', content: 'dig' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', content: 'y'.repeat(50), tool_call_id: 'c1' },
      { role: 'tool', content: 'z'.repeat(50) },
      { role: 'user', content: 'so?' },
    ];
    const stubbing = summariser();
    const stubResult = await summarizeHistory(stubbed, {
      summarize: stubbing.summarize,
      toolResultStubThreshold: 10,
    });
    expect(stubbing.requests[0]?.messages.slice(2).map((message) => message.content)).toEqual([
      '[Tool lookup returned 50 chars; omitted before summarization]',
      '[Tool unknown returned 50 chars; omitted before summarization]',
    ]);
    expect(stubResult.replaced[2]?.content).toBe('y'.repeat(50));
  });

  it('44: the summary drops <analysis> blocks, keeps only the inside of <summary>, collapses blank lines and trims', async () => {
    const { summarize } = summariser(
      '<analysis>scratch</analysis>\n<summary>\n  one\n\n\n\ntwo  \n</summary>',
    );
    const result = await summarizeHistory(turns(2), { summarize });
    expect(result.summary?.content).toContain('\none\n\ntwo\n');
    expect(result.summary?.content).not.toContain('scratch');
  });

  it('45: keep 0 summarises everything, keep ≥ the turn count or an empty history is a no-op returning the same array, negatives clamp to 0, fractions floor; planCompaction splits on turns with system messages out, compactHistory returns the compacted history (Flotilla: neither sanitises)', async () => {
    const history = turns(2);
    expect((await summarizeHistory(history, { ...summariser(), keepRecentTurns: 0 })).history).toHaveLength(
      1,
    );
    expect((await summarizeHistory(history, { ...summariser(), keepRecentTurns: 4 })).history).toBe(history);
    expect((await summarizeHistory(history, { ...summariser(), keepRecentTurns: 9 })).history).toBe(history);
    const empty: Message[] = [];
    expect((await summarizeHistory(empty, summariser())).history).toBe(empty);
    expect((await summarizeHistory(history, { ...summariser(), keepRecentTurns: -3 })).history).toHaveLength(
      1,
    );
    expect((await summarizeHistory(history, { ...summariser(), keepRecentTurns: 1.9 })).history).toHaveLength(
      2,
    );
    const blank = await summarizeHistory(history, { ...summariser('   ') });
    expect(blank.history).toBe(history);
    const withSystem: Message[] = [{ role: 'system', content: 'rules' }, ...turns(2)];
    expect(planCompaction(withSystem, { keepRecentTurns: 1 })).toEqual({
      system: [withSystem[0]],
      toSummarize: withSystem.slice(1, 4),
      toKeep: [withSystem[4]],
    });
    expect(planCompaction(withSystem, { keepRecentTurns: 0 }).toKeep).toEqual([]);
    expect(planCompaction(withSystem, { keepRecentTurns: 4 }).toSummarize).toEqual([]);
    const compacted = await compactHistory(withSystem, summariser());
    expect(compacted.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
    expect(await compactHistory(withSystem, { ...summariser(), keepRecentTurns: 4 })).toBe(withSystem);
    expect(await compactHistory(empty, summariser())).toBe(empty);
  });
  it('46: the summariser gets the instructions and the slice in order, errors are rethrown, and an empty slice makes no call', async () => {
    const history = turns(2);
    const { requests, summarize } = summariser();
    await summarizeHistory(history, { summarize, additionalInstructions: 'Keep numbers.' });
    expect(requests[0]?.messages).toEqual(history.slice(0, 3));
    expect(requests[0]?.instructions).toMatch(/Additional instructions:\nKeep numbers\.$/);
    await summarizeHistory([{ role: 'user', content: 'only' }], { summarize });
    expect(requests).toHaveLength(1);
    await expect(
      summarizeHistory(history, {
        summarize: async () => {
          throw new TypeError('boom');
        },
      }),
    ).rejects.toThrow(TypeError);
  });
});

describe('chef state', () => {
  it('47: clearing the history (setHistory([])) keeps the system prompt', async () => {
    const chef = new ContextChef().setSystemPrompt('rules').setHistory(turns(2)).setHistory([]);
    expect(chef.getSystemPrompt()).toEqual([{ role: 'system', content: 'rules' }]);
    expect((await chef.compile({ target: 'openai' })).messages).toEqual([
      { role: 'system', content: 'rules' },
    ]);
  });

  it('48: per-conversation state lives in separate chefs: one chef never sees another one’s history', async () => {
    const alice = new ContextChef().setHistory([{ role: 'user', content: 'alice' }]);
    const bob = new ContextChef().setHistory([{ role: 'user', content: 'bob' }]);
    expect((await alice.compile()).messages).toEqual([{ role: 'user', content: 'alice' }]);
    expect((await bob.compile()).messages).toEqual([{ role: 'user', content: 'bob' }]);
  });
});

describe('openai-responses', () => {
  it('49: fromOpenAIResponses splits system/developer off, joins outputs by call_id in call order, groups calls per turn, attaches reasoning, reads media and sanitises', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc', summary: [] };
    const { system, history } = fromOpenAIResponses(
      [
        { role: 'developer', content: 'dev rules' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'q' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
          ],
        },
        { type: 'function_call_output', call_id: 'b', output: 'B' },
        reasoning,
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'b', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'a', output: 'A' },
        { type: 'function_call', call_id: 'c', name: 'g', arguments: '{}' },
        { type: 'function_call_output', call_id: 'ghost', output: 'orphan' },
        { type: 'reasoning', id: 'rs_2', encrypted_content: 'tail', summary: [] },
      ],
      'be kind',
    );
    expect(system.map((m) => m.content)).toEqual(['be kind', 'dev rules']);
    expect(history[0]?.attachments).toMatchObject([{ mediaType: 'image/png', data: PNG }]);
    expect(history[1]).toMatchObject({ tool_calls: [call('a', 'f', '{}'), call('b', 'f', '{}')] });
    expect(history[1]?._openai_reasoning?.[0]).toBe(reasoning);
    expect(history.slice(2, 4).map((m) => [m.tool_call_id, m.content])).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
    expect(history[4]?.tool_calls?.map((c) => c.id)).toEqual(['c']);
    expect(history[5]).toMatchObject({ role: 'tool', tool_call_id: 'c', content: MISSING_TOOL_RESULT });
    expect(history[6]).toMatchObject({
      role: 'assistant',
      content: '',
      _openai_reasoning: [expect.objectContaining({ id: 'rs_2' })],
    });
    expect(JSON.stringify(history)).not.toContain('orphan');
    const leading = fromOpenAIResponses([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] },
    ]);
    expect(leading.history[0]).toEqual({ role: 'user', content: CONVERSATION_CONTINUES });
  });

  it('50: the Responses target joins instructions, emits reasoning by reference before its text and calls, wraps base64 as data URLs, never leaks cache flags, thinking or signatures, degrades prefills, and is registered', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc', summary: [] };
    const history: Message[] = [
      { role: 'system', content: 'one' },
      { role: 'system', content: 'two', _cache_breakpoint: true },
      {
        role: 'user',
        content: 'q',
        attachments: [
          { mediaType: 'image/png', data: PNG },
          { mediaType: 'application/pdf', data: 'https://example.com/r.pdf' },
        ],
      },
      {
        role: 'assistant',
        content: 'calling',
        _openai_reasoning: [reasoning],
        thinking: { thinking: 'anthropic-only' },
        tool_calls: [{ ...call('c1'), thoughtSignature: 'gemini-only' }],
      },
      { role: 'tool', content: 'r', tool_call_id: 'c1' },
      { role: 'assistant', content: 'Sure' },
    ];
    const payload = responses(history);
    expect(payload.instructions).toBe('one\n\ntwo');
    expect(payload.input[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: expect.stringMatching(/^q\n\n.*MUST start verbatim.*"Sure"/s) },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
        { type: 'input_file', file_url: 'https://example.com/r.pdf' },
      ],
    });
    expect(payload.input[1]).toBe(reasoning);
    expect(payload.input.slice(2)).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'calling' }] },
      { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{"q":"x"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'r' },
    ]);
    const text = JSON.stringify(payload);
    for (const leak of ['cache', 'anthropic-only', 'gemini-only', 'thoughtSignature'])
      expect(text).not.toContain(leak);
    const stub = responses([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', _openai_reasoning: [reasoning] },
    ]);
    expect(stub.input.at(-1)).toBe(reasoning);
    expect(adapterRegistry.get('openai-responses')).toBeInstanceOf(OpenAIResponsesAdapter);
  });
});
