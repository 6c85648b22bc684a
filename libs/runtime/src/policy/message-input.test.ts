import { describe, expect, it } from 'vitest';
import { InvalidMessageHistoryError } from '../errors/policy-errors.js';
import { toIrMessages, toIrToolCalls } from './message-input.js';

const PNG = 'iVBORw0KGgo=';

describe('toIrMessages: the seed API message format', () => {
  it('converts content parts, null content, flat tool calls and reasoning_content to the IR', () => {
    const messages = toIrMessages(
      [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image', image: { url: 'https://example.com/cat.jpg', detail: 'low' } },
            { type: 'image', image: { url: `data:image/png;base64,${PNG}`, detail: 'high' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'Look it up first.',
          tool_calls: [
            { id: 'c1', name: 'lookup', arguments: '{"q":"cat"}', extra: { thoughtSignature: 'sig-1' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'a cat' },
        { role: 'assistant', content: 'A cat.', extra: { rejelly: { kind: 'answer' } } },
      ],
      'promptChat.message',
    );
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: 'What is in this picture?',
        attachments: [
          { mediaType: 'image/jpeg', data: 'https://example.com/cat.jpg', source: 'url', detail: 'low' },
          { mediaType: 'image/png', data: PNG, source: 'base64', detail: 'high' },
        ],
      },
      {
        role: 'assistant',
        content: '',
        thinking: { thinking: 'Look it up first.' },
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'lookup', arguments: '{"q":"cat"}' },
            thoughtSignature: 'sig-1',
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a cat' },
      { role: 'assistant', content: 'A cat.' },
    ]);
  });

  it('keeps IR messages as they are (nested tool calls, attachments, pinned)', () => {
    const ir = [
      { role: 'user' as const, content: 'hi', pinned: true },
      {
        role: 'assistant' as const,
        content: '',
        tool_calls: [{ id: 'a', type: 'function' as const, function: { name: 't', arguments: '{}' } }],
      },
      { role: 'tool' as const, tool_call_id: 'a', name: 't', content: '1' },
    ];
    expect(toIrMessages(ir, 'executeTurn')).toEqual(ir);
  });

  it('accepts arguments stored as an object and OpenAI image_url parts', () => {
    const [assistant, user] = toIrMessages(
      [
        { role: 'assistant', content: null, tool_calls: [{ id: 'x', name: 'add', arguments: { a: 1 } }] },
        {
          role: 'user',
          content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'auto' } }],
        },
      ],
      'executeTurn',
    );
    expect(assistant?.tool_calls?.[0]?.function.arguments).toBe('{"a":1}');
    expect(user?.attachments?.[0]).toMatchObject({ source: 'url', detail: 'auto' });
  });

  it.each([
    [[{ role: 'robot', content: 'x' }], 'promptChat.message[0].role'],
    [[{ role: 'user', content: 42 }], 'promptChat.message[0].content'],
    [[{ role: 'user', content: [{ type: 'audio', audio: {} }] }], 'promptChat.message[0].content[0].type'],
    [
      [{ role: 'user', content: [{ type: 'image', image: { url: 'cat.jpg' } }] }],
      'promptChat.message[0].content[0].image.url',
    ],
    [
      [{ role: 'user', content: [{ type: 'image', image: { url: 'https://x/a.png', detail: 'max' } }] }],
      'promptChat.message[0].content[0].image.detail',
    ],
    [
      [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', arguments: '{}' }] }],
      'promptChat.message[0].tool_calls[0].name',
    ],
    [
      [{ role: 'assistant', content: null, tool_calls: [{ name: 'x' }] }],
      'promptChat.message[0].tool_calls[0].id',
    ],
    [
      [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', name: 'x', arguments: 7 }] }],
      'promptChat.message[0].tool_calls[0].arguments',
    ],
    [[{ role: 'user', content: 'x', tool_calls: [] }], 'promptChat.message[0].tool_calls'],
    [[{ role: 'tool', content: 'x' }], 'promptChat.message[0].tool_call_id'],
    [[null], 'promptChat.message[0]'],
  ])('refuses %j with InvalidMessageHistoryError naming %s', (input, path) => {
    let error: unknown;
    try {
      toIrMessages(input, 'promptChat.message');
    } catch (caught) {
      error = caught;
    }
    expect(InvalidMessageHistoryError.is(error)).toBe(true);
    expect((error as InvalidMessageHistoryError).path).toBe(path);
    expect((error as Error).message).toContain('Invalid message history at index 0');
  });

  it('keeps every other field of a message as given, in order (symbols and __proto__ too)', () => {
    const tag = Symbol('tag');
    const given = JSON.parse(
      '{"tool_call_id":"c1","role":"tool","__proto__":{"x":1},"content":"found","name":"lookup","extra":{"a":1}}',
    ) as Record<string | symbol, unknown>;
    given[tag] = 'kept';
    const [message] = toIrMessages([given], 'test') as unknown as Record<string | symbol, unknown>[];
    expect(Object.keys(message ?? {})).toEqual(['tool_call_id', '__proto__', 'name', 'role', 'content']);
    expect(Object.getPrototypeOf(message)).toBe(Object.prototype);
    expect(message?.[tag]).toBe('kept');
    expect(message?.content).toBe('found');
  });

  it('refuses a value that is not an array', () => {
    expect(() => toIrMessages('hello', 'executeTurn')).toThrow(InvalidMessageHistoryError);
  });

  it('converts the seed flat tool calls a loop middleware passes inward', () => {
    expect(toIrToolCalls([{ id: 'c', name: 'n', arguments: '' }], 'executeTools')).toEqual([
      { id: 'c', type: 'function', function: { name: 'n', arguments: '' } },
    ]);
  });
});
