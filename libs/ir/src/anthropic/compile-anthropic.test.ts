import { describe, expect, it } from 'vitest';
import { compileCollectingWarnings } from '../testing/compile-collecting-warnings.js';
import { PNG } from '../testing/sample-media.js';
import { toolCall } from '../testing/tool-call.js';
import type { Message } from '../types/message.js';
import type { CompileContext } from '../types/target-adapter.js';
import { AnthropicAdapter } from './compile-anthropic.js';

const call = (id: string, args?: string) => toolCall(id, 'look', args);

function compile(messages: Message[], context?: CompileContext) {
  return compileCollectingWarnings(new AnthropicAdapter(), messages, context);
}

describe('AnthropicAdapter', () => {
  it('hoists system messages into system text blocks and keeps a positional one in place as user text', () => {
    const { payload } = compile([
      { role: 'system', content: 'one' },
      { role: 'system', content: 'two' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'system', content: 'mid rule', _positional: true },
      { role: 'user', content: 'next' },
    ]);
    expect(payload.system).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect(payload.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'mid rule' },
          { type: 'text', text: 'next' },
        ],
      },
    ]);
  });

  it('has no system key without system messages', () => {
    expect('system' in compile([{ role: 'user', content: 'q' }]).payload).toBe(false);
  });

  it('marks cache breakpoints with ephemeral cache_control on the message’s last block only', () => {
    const { payload } = compile([
      { role: 'system', content: 'sys', _cache_breakpoint: true },
      {
        role: 'user',
        content: 'look',
        attachments: [{ mediaType: 'image/png', data: PNG }],
        _cache_breakpoint: true,
      },
      { role: 'assistant', content: 'calling', tool_calls: [call('c1')], _cache_breakpoint: true },
      { role: 'tool', content: 'seen', tool_call_id: 'c1', _cache_breakpoint: true },
      { role: 'user', content: 'plain' },
    ]);
    expect(payload.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    const [user, assistant, results] = payload.messages as unknown as Array<{
      content: Array<Record<string, unknown>>;
    }>;
    expect(user!.content.map((block) => block.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    expect(assistant!.content.map((block) => block.cache_control)).toEqual([
      undefined,
      { type: 'ephemeral' },
    ]);
    expect(results!.content.map((block) => block.cache_control)).toEqual([{ type: 'ephemeral' }, undefined]);
  });

  it('keeps only the last four cache breakpoints and warns', () => {
    const messages: Message[] = [];
    for (let turn = 0; turn < 3; turn++) {
      messages.push({ role: 'user', content: `u${turn}`, _cache_breakpoint: true });
      messages.push({ role: 'assistant', content: `a${turn}`, _cache_breakpoint: true });
    }
    const { payload, codes } = compile(messages);
    const marked = JSON.stringify(payload.messages).match(/ephemeral/g) ?? [];
    expect(marked).toHaveLength(4);
    expect(JSON.stringify(payload.messages[0])).not.toContain('ephemeral');
    expect(codes).toEqual(['cache-breakpoints-limited']);
  });

  it('sends a trailing assistant as a native prefill, without trailing whitespace', () => {
    const { payload, codes } = compile([
      { role: 'user', content: 'JSON please' },
      { role: 'assistant', content: '{"a": ' },
    ]);
    expect(payload.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '{"a":' }],
    });
    expect(codes).toEqual(['prefill-whitespace-trimmed']);
  });

  describe('thinking', () => {
    it('puts signed thinking and redacted thinking first, then text, then tool_use', () => {
      const { payload } = compile([
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'let me look',
          thinking: { thinking: 'plan', signature: 'sig' },
          redacted_thinking: { data: 'opaque' },
          tool_calls: [call('c1', '{"x":1}')],
        },
        { role: 'tool', content: 'r', tool_call_id: 'c1' },
      ]);
      expect(payload.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'let me look' },
          { type: 'tool_use', id: 'c1', name: 'look', input: { x: 1 } },
        ],
      });
    });

    it('drops unsigned thinking (from another provider) with a warning', () => {
      const { payload, codes } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', thinking: { thinking: 'foreign' } },
        { role: 'user', content: 'q2' },
      ]);
      expect(JSON.stringify(payload)).not.toContain('foreign');
      expect(codes).toEqual(['thinking-unsigned-dropped']);
    });
  });

  describe('tool calls and results', () => {
    it('emits no empty text block before tool_use', () => {
      const { payload } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', tool_calls: [call('c1'), call('c2', '')] },
        { role: 'tool', content: 'r1', tool_call_id: 'c1' },
        { role: 'tool', content: 'r2', tool_call_id: 'c2', _tool_error: true },
      ]);
      expect(payload.messages[1]!.content).toEqual([
        { type: 'tool_use', id: 'c1', name: 'look', input: {} },
        { type: 'tool_use', id: 'c2', name: 'look', input: {} },
      ]);
      expect(payload.messages[2]).toEqual({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'r1' },
          { type: 'tool_result', tool_use_id: 'c2', content: 'r2', is_error: true },
        ],
      });
    });

    it('sends {} for malformed arguments and warns instead of throwing', () => {
      const { payload, warnings } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', tool_calls: [call('bad', '{"x":'), call('arr', '[1]')] },
      ]);
      expect(payload.messages[1]!.content).toEqual([
        { type: 'tool_use', id: 'bad', name: 'look', input: {} },
        { type: 'tool_use', id: 'arr', name: 'look', input: {} },
      ]);
      expect(warnings.map((warning) => [warning.code, warning.messageIndex])).toEqual([
        ['tool-arguments-invalid', 1],
        ['tool-arguments-invalid', 1],
      ]);
    });

    it('keeps tool-result media natively inside the tool_result block', () => {
      const { payload } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', tool_calls: [call('c1')] },
        {
          role: 'tool',
          content: 'screenshot',
          tool_call_id: 'c1',
          attachments: [{ mediaType: 'image/png', data: PNG }],
        },
      ]);
      expect(payload.messages[2]!.content).toEqual([
        {
          type: 'tool_result',
          tool_use_id: 'c1',
          content: [
            { type: 'text', text: 'screenshot' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      ]);
    });

    it('merges tool results and the following user text into one user turn', () => {
      const { payload } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', tool_calls: [call('c1')] },
        { role: 'tool', content: 'r', tool_call_id: 'c1' },
        { role: 'user', content: 'and now?' },
      ]);
      expect(payload.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(payload.messages[2]!.content).toEqual([
        { type: 'tool_result', tool_use_id: 'c1', content: 'r' },
        { type: 'text', text: 'and now?' },
      ]);
    });
  });

  describe('attachments', () => {
    it('sends base64, URL and file-id media in their exact wire forms', () => {
      const text = Buffer.from('hello notes', 'utf8').toString('base64');
      const { payload, codes } = compile([
        {
          role: 'user',
          content: 'see',
          attachments: [
            { mediaType: 'image/png', data: PNG },
            { mediaType: 'image/png', data: `data:image/png;base64,${PNG}` },
            { mediaType: 'image/*', data: 'https://x.test/a.jpg', source: 'url' },
            { mediaType: 'image/*', data: 'file_img', source: 'file-id' },
            { mediaType: 'application/pdf', data: 'JVBER', filename: 'r.pdf' },
            { mediaType: 'application/pdf', data: 'https://x.test/r.pdf', source: 'url' },
            { mediaType: 'application/octet-stream', data: 'file_doc', source: 'file-id' },
            { mediaType: 'text/plain', data: text, filename: 'notes.txt' },
          ],
        },
      ]);
      expect(payload.messages[0]!.content).toEqual([
        { type: 'text', text: 'see' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'image', source: { type: 'url', url: 'https://x.test/a.jpg' } },
        { type: 'image', source: { type: 'file', file_id: 'file_img' } },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' },
          title: 'r.pdf',
        },
        { type: 'document', source: { type: 'url', url: 'https://x.test/r.pdf' } },
        { type: 'document', source: { type: 'file', file_id: 'file_doc' } },
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: 'hello notes' },
          title: 'notes.txt',
        },
      ]);
      expect(codes).toEqual([]);
    });

    it('replaces forms the API cannot take by a text note and warns, and drops assistant media', () => {
      const { payload, codes } = compile([
        {
          role: 'user',
          content: '',
          attachments: [
            { mediaType: 'image/bmp', data: 'Qk0=' },
            { mediaType: 'application/zip', data: 'UEsDB' },
            { mediaType: 'image/png', data: 'gs://b/a.png', source: 'url' },
          ],
        },
        { role: 'assistant', content: 'ok', attachments: [{ mediaType: 'image/png', data: PNG }] },
        { role: 'user', content: 'next' },
      ]);
      expect(payload.messages[0]!.content).toEqual([
        { type: 'text', text: '[attachment omitted: image/bmp (base64)]' },
        { type: 'text', text: '[attachment omitted: application/zip (base64)]' },
        { type: 'text', text: '[attachment omitted: image/png (url)]' },
      ]);
      expect(payload.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
      expect(codes).toEqual(Array(4).fill('attachment-unsupported'));
    });
  });

  it('never copies internal or unknown fields into the payload', () => {
    const { payload } = compile([
      { role: 'user', content: 'q', _x: 1, name: 'alice', pinned: true, _positional: true },
      {
        role: 'assistant',
        content: 'a',
        _gemini_thought_signature: 'gsig',
        _openai_reasoning: [{ type: 'reasoning' }],
        _openai_responses_items: [{ type: 'web_search_call' }],
        tool_calls: [{ ...call('c1'), thoughtSignature: 'tsig' }],
        _y: { deep: true },
      },
      { role: 'tool', content: 'r', tool_call_id: 'c1', name: 'look', _z: 2 },
    ]);
    const text = JSON.stringify(payload.messages);
    for (const field of [
      '_x',
      '_y',
      '_z',
      'alice',
      'pinned',
      'gsig',
      'tsig',
      'reasoning',
      'web_search',
      '_positional',
      'attachments',
    ]) {
      expect(text).not.toContain(field);
    }
    expect(payload.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'r' }],
    });
  });

  it('converts tools to { name, description, input_schema }', () => {
    const { payload } = compile([{ role: 'user', content: 'q' }], {
      tools: [
        {
          name: 'search',
          description: 'Search',
          parameters: { properties: { q: { type: 'string' } }, required: ['q'] },
          tags: ['web'],
        },
        { name: 'now', description: 'Time' },
      ],
    });
    expect(payload.tools).toEqual([
      {
        name: 'search',
        description: 'Search',
        input_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      },
      { name: 'now', description: 'Time', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it('sends defer_loading for tools marked deferLoading, and only for them', () => {
    const { payload } = compile([{ role: 'user', content: 'q' }], {
      tools: [
        { name: 'rare', description: 'Rarely needed', deferLoading: true },
        { name: 'common', description: 'Always there', deferLoading: false },
        { name: 'plain', description: 'Unmarked' },
      ],
    });
    expect(payload.tools).toEqual([
      {
        name: 'rare',
        description: 'Rarely needed',
        input_schema: { type: 'object', properties: {} },
        defer_loading: true,
      },
      { name: 'common', description: 'Always there', input_schema: { type: 'object', properties: {} } },
      { name: 'plain', description: 'Unmarked', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it('does not mutate the input messages', () => {
    const messages: Message[] = [
      { role: 'system', content: 's', _cache_breakpoint: true },
      { role: 'user', content: 'q', _cache_breakpoint: true },
      { role: 'assistant', content: 'a ' },
    ];
    const copy = structuredClone(messages);
    compile(messages);
    expect(messages).toEqual(copy);
  });
});
