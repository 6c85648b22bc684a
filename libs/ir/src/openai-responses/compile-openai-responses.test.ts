import { describe, expect, it } from 'vitest';
import { TOOL_MEDIA_FOLLOWS_TEXT } from '../shared/tool-media-follows-text.js';
import { compileCollectingWarnings } from '../testing/compile-collecting-warnings.js';
import { PNG } from '../testing/sample-media.js';
import { toolCall } from '../testing/tool-call.js';
import type { Message } from '../types/message.js';
import type { CompileContext } from '../types/target-adapter.js';
import { OpenAIResponsesAdapter } from './compile-openai-responses.js';
import { fromOpenAIResponses } from './from-openai-responses.js';

const call = (id: string, args?: string) => toolCall(id, 'look', args);

function compile(messages: Message[], context: CompileContext = {}) {
  return compileCollectingWarnings(new OpenAIResponsesAdapter(), messages, context);
}

describe('OpenAIResponsesAdapter', () => {
  it('joins system messages into instructions and maps text to input_text / output_text', () => {
    const { payload } = compile([
      { role: 'system', content: 'one' },
      { role: 'system', content: 'two' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'system', content: 'mid', _positional: true },
      { role: 'user', content: 'go' },
    ]);
    expect(payload.instructions).toBe('one\n\ntwo');
    expect(payload.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] },
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'mid' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
    ]);
  });

  it('emits reasoning by reference, then hosted items, then text, then function calls and outputs', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', encrypted_content: 'ENC', summary: [] };
    const hosted = { type: 'web_search_call', id: 'ws_1', status: 'completed' };
    const { payload } = compile([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'checking',
        _openai_reasoning: [reasoning],
        _openai_responses_items: [hosted],
        tool_calls: [{ ...call('c1', '{"a":1}'), thoughtSignature: 'gemini-sig' }],
        thinking: { thinking: 'claude', signature: 's' },
      },
      { role: 'tool', content: 'done', tool_call_id: 'c1' },
    ]);
    expect(payload.input[1]).toBe(reasoning);
    expect(payload.input[2]).toBe(hosted);
    expect(payload.input.slice(3)).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'checking' }] },
      { type: 'function_call', call_id: 'c1', name: 'look', arguments: '{"a":1}' },
      { type: 'function_call_output', call_id: 'c1', output: 'done' },
    ]);
    expect(JSON.stringify(payload)).not.toContain('gemini-sig');
    expect(JSON.stringify(payload)).not.toContain('claude');
  });

  it('emits no empty assistant message for a turn of calls only', () => {
    const { payload } = compile([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', content: 'r', tool_call_id: 'c1' },
    ]);
    expect(payload.input.map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
  });

  it('splits tool-result media into a following user message of input parts', () => {
    const { payload } = compile([
      { role: 'user', content: 'shots' },
      { role: 'assistant', content: '', tool_calls: [call('c1'), call('c2')] },
      { role: 'tool', content: '', tool_call_id: 'c1', attachments: [{ mediaType: 'image/png', data: PNG }] },
      { role: 'tool', content: 'text only', tool_call_id: 'c2' },
    ]);
    expect(payload.input.slice(3)).toEqual([
      { type: 'function_call_output', call_id: 'c1', output: TOOL_MEDIA_FOLLOWS_TEXT },
      { type: 'function_call_output', call_id: 'c2', output: 'text only' },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_image', image_url: `data:image/png;base64,${PNG}` }],
      },
    ]);
  });

  it('sends base64, URL and file-id attachments in their exact wire forms', () => {
    const { payload, codes } = compile([
      {
        role: 'user',
        content: '',
        attachments: [
          { mediaType: 'image/png', data: PNG },
          { mediaType: 'image/*', data: 'https://x.test/a.png', source: 'url' },
          { mediaType: 'image/png', data: 'file-img', source: 'file-id' },
          { mediaType: 'application/pdf', data: 'JVBER', filename: 'r.pdf' },
          { mediaType: 'application/pdf', data: 'https://x.test/r.pdf', source: 'url' },
          { mediaType: 'application/pdf', data: 'file-doc', source: 'file-id' },
          { mediaType: 'audio/wav', data: 'UklGR' },
        ],
      },
    ]);
    expect(payload.input[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
        { type: 'input_image', image_url: 'https://x.test/a.png' },
        { type: 'input_image', file_id: 'file-img' },
        { type: 'input_file', file_data: 'data:application/pdf;base64,JVBER', filename: 'r.pdf' },
        { type: 'input_file', file_url: 'https://x.test/r.pdf' },
        { type: 'input_file', file_id: 'file-doc' },
        { type: 'input_text', text: '[attachment omitted: audio/wav (base64)]' },
      ],
    });
    expect(codes).toEqual(['attachment-unsupported']);
  });

  describe('prefill', () => {
    it('degrades a trailing plain assistant into the last user input_text', () => {
      const { payload, codes } = compile([
        { role: 'user', content: 'List' },
        { role: 'assistant', content: '1.' },
      ]);
      expect(payload.input).toHaveLength(1);
      const text = JSON.stringify(payload.input[0]);
      expect(text).toContain(
        'List\\n\\n[System Note] SYSTEM INSTRUCTION: Your response MUST start verbatim with',
      );
      expect(text).toContain('1.');
      expect(codes).toEqual(['prefill-degraded']);
    });

    it('adds it to instructions when there is no user message', () => {
      const { payload } = compile([
        { role: 'system', content: 'sys' },
        { role: 'assistant', content: 'OK' },
      ]);
      expect(payload.input).toEqual([]);
      expect(payload.instructions).toContain('sys\n\n[System Note]');
    });

    it('keeps a trailing reasoning stub or tool-call turn as a real turn', () => {
      const stub = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', _openai_reasoning: [{ type: 'reasoning', id: 'r' }] },
      ]);
      expect(stub.payload.input).toEqual([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
        { type: 'reasoning', id: 'r' },
      ]);
      expect(stub.codes).toEqual([]);
    });
  });

  it('never copies internal or unknown fields into the payload', () => {
    const { payload, codes } = compile([
      { role: 'user', content: 'q', _x: 1, name: 'alice', _cache_breakpoint: true },
      {
        role: 'assistant',
        content: 'a',
        _gemini_thought_signature: 'gsig',
        redacted_thinking: { data: 'RED' },
        _y: 2,
      },
      { role: 'user', content: 'next', pinned: true },
    ]);
    const text = JSON.stringify(payload.input);
    for (const field of ['_x', '_y', 'alice', 'cache', 'gsig', 'RED', 'pinned', 'attachments']) {
      expect(text).not.toContain(field);
    }
    expect(codes).toEqual(['redacted-thinking-dropped']);
  });

  it('converts tools to the flat function shape with strict off', () => {
    const { payload } = compile([{ role: 'user', content: 'q' }], {
      tools: [
        {
          name: 'search',
          description: 'Search',
          parameters: { type: 'object', properties: {} },
          tags: ['x'],
        },
      ],
    });
    expect(payload.tools).toEqual([
      {
        type: 'function',
        name: 'search',
        description: 'Search',
        parameters: { type: 'object', properties: {} },
        strict: false,
      },
    ]);
  });

  it('round-trips fromOpenAIResponses output back to the same items and instructions', () => {
    const items = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
      {
        type: 'reasoning',
        id: 'rs_1',
        encrypted_content: 'gAAAA-opaque',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'think' }],
      },
      { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'rain' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'It rains.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks' }] },
    ];
    const { system, history } = fromOpenAIResponses(items, 'Be brief.');
    const { payload } = compile([...system, ...history]);
    expect(payload.instructions).toBe('Be brief.');
    expect(payload.input).toEqual(items);
  });
});
