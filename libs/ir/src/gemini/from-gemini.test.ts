import { describe, expect, it } from 'vitest';
import { IRValidationError } from '../errors.js';
import type { ToolCall } from '../types/message.js';
import { fromGemini } from './from-gemini.js';
import type { GeminiContent } from './gemini-wire.js';

function rejection(contents: unknown, systemInstruction?: unknown): IRValidationError {
  try {
    fromGemini(contents, systemInstruction);
  } catch (error) {
    if (IRValidationError.is(error)) return error;
    throw error;
  }
  throw new Error('fromGemini accepted the input');
}

const fnCall = (id: string, name: string, args = '{}', thoughtSignature?: string): ToolCall =>
  thoughtSignature === undefined
    ? { id, type: 'function', function: { name, arguments: args } }
    : { id, type: 'function', function: { name, arguments: args }, thoughtSignature };

describe('fromGemini', () => {
  it('turns each systemInstruction text part into a system message and model into assistant', () => {
    const contents: GeminiContent[] = [
      { role: 'user', parts: [{ text: 'Hi' }, { text: 'there' }] },
      { role: 'model', parts: [{ text: 'Hello!' }] },
    ];
    expect(fromGemini(contents, { parts: [{ text: 'You are a cat.' }, { text: 'Meow often.' }] })).toEqual({
      system: [
        { role: 'system', content: 'You are a cat.' },
        { role: 'system', content: 'Meow often.' },
      ],
      history: [
        { role: 'user', content: 'Hi\nthere' },
        { role: 'assistant', content: 'Hello!' },
      ],
    });
  });

  it('accepts a string systemInstruction, none at all, and a content without role as user', () => {
    expect(fromGemini([{ parts: [{ text: 'q' }] }], 'Be kind.')).toEqual({
      system: [{ role: 'system', content: 'Be kind.' }],
      history: [{ role: 'user', content: 'q' }],
    });
    expect(fromGemini([{ role: 'user', parts: [{ text: 'q' }] }]).system).toEqual([]);
  });

  it('turns inlineData and fileData into normalised attachments', () => {
    const { history } = fromGemini([
      {
        role: 'user',
        parts: [
          { text: 'Describe both, then the PDF.' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'gs://bucket/cat.jpg' } },
          { fileData: { fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc-123' } },
        ],
      },
    ]);
    expect(history[0]?.attachments).toEqual([
      { mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64' },
      { mediaType: 'image/jpeg', data: 'gs://bucket/cat.jpg', source: 'url' },
      {
        mediaType: 'application/octet-stream',
        data: 'https://generativelanguage.googleapis.com/v1beta/files/abc-123',
        source: 'url',
      },
    ]);
  });

  it('numbers generated call ids per name across the conversation and pairs results oldest-first', () => {
    const { history } = fromGemini([
      { role: 'user', parts: [{ text: 'Weather in Oslo and Rome, then the time.' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
          { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp: 3 } } },
          { functionResponse: { name: 'get_weather', response: { temp: 18 } } },
        ],
      },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
      { role: 'function', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 4 } } }] },
    ]);
    expect(history.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          fnCall('gemini-fc-get_weather-0', 'get_weather', '{"city":"Oslo"}'),
          fnCall('gemini-fc-get_weather-1', 'get_weather', '{"city":"Rome"}'),
        ],
      },
      { role: 'tool', tool_call_id: 'gemini-fc-get_weather-0', name: 'get_weather', content: '{"temp":3}' },
      { role: 'tool', tool_call_id: 'gemini-fc-get_weather-1', name: 'get_weather', content: '{"temp":18}' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [fnCall('gemini-fc-get_weather-2', 'get_weather', '{"city":"Oslo"}')],
      },
      { role: 'tool', tool_call_id: 'gemini-fc-get_weather-2', name: 'get_weather', content: '{"temp":4}' },
    ]);
  });

  it('uses native functionCall ids and matches responses by id even when they come back out of order', () => {
    const { history } = fromGemini([
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'fc-a', name: 'lookup', args: { q: 'a' } } },
          { functionCall: { id: 'fc-b', name: 'lookup', args: { q: 'b' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'fc-b', name: 'lookup', response: { r: 'B' } } },
          { functionResponse: { id: 'fc-a', name: 'lookup', response: { r: 'A' } } },
        ],
      },
    ]);
    expect(history[1]?.tool_calls?.map((call) => call.id)).toEqual(['fc-a', 'fc-b']);
    expect(history.slice(2).map((message) => [message.tool_call_id, message.content])).toEqual([
      ['fc-b', '{"r":"B"}'],
      ['fc-a', '{"r":"A"}'],
    ]);
  });

  it('keeps thought signatures: on the call for functionCall parts, on the message for text parts', () => {
    const { history } = fromGemini([
      { role: 'user', parts: [{ text: 'Book a table.' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking availability.', thoughtSignature: 'c2lnLXRleHQtMQ==' },
          { functionCall: { name: 'check', args: { time: '19:00' } }, thoughtSignature: 'c2lnLWNhbGw=' },
          { functionCall: { name: 'check', args: { time: '20:00' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'check', response: { free: false } } },
          { functionResponse: { name: 'check', response: { free: true } } },
        ],
      },
      {
        role: 'model',
        parts: [{ text: '20:00 is free.' }, { text: '', thoughtSignature: 'c2lnLWxhc3Q=' }],
      },
    ]);
    expect(history[1]).toEqual({
      role: 'assistant',
      content: 'Checking availability.',
      tool_calls: [
        fnCall('gemini-fc-check-0', 'check', '{"time":"19:00"}', 'c2lnLWNhbGw='),
        fnCall('gemini-fc-check-1', 'check', '{"time":"20:00"}'),
      ],
      _gemini_thought_signature: 'c2lnLXRleHQtMQ==',
    });
    expect(history[4]).toEqual({
      role: 'assistant',
      content: '20:00 is free.',
      _gemini_thought_signature: 'c2lnLWxhc3Q=',
    });
  });

  it('routes thought parts to thinking instead of the content', () => {
    const { history } = fromGemini([
      { role: 'user', parts: [{ text: '2+2?' }] },
      { role: 'model', parts: [{ text: 'Adding two and two.', thought: true }, { text: '4' }] },
    ]);
    expect(history[1]).toEqual({
      role: 'assistant',
      content: '4',
      thinking: { thinking: 'Adding two and two.' },
    });
  });

  it('defaults missing args to {} and answers calls without a response with named placeholders', () => {
    const { history } = fromGemini([
      { role: 'user', parts: [{ text: 'refresh' }] },
      { role: 'model', parts: [{ functionCall: { name: 'refresh_cache' } }] },
    ]);
    expect(history.slice(1)).toEqual([
      { role: 'assistant', content: '', tool_calls: [fnCall('gemini-fc-refresh_cache-0', 'refresh_cache')] },
      {
        role: 'tool',
        tool_call_id: 'gemini-fc-refresh_cache-0',
        content: '[No tool result available]',
        name: 'refresh_cache',
      },
    ]);
  });

  it('drops a response no call is waiting for instead of duplicating an answered call', () => {
    const { history } = fromGemini([
      { role: 'user', parts: [{ text: 'x' }] },
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'f', response: { n: 1 } } },
          { functionResponse: { name: 'f', response: { n: 2 } } },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'never_called', response: {} } }] },
    ]);
    expect(history.filter((message) => message.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'gemini-fc-f-0', name: 'f', content: '{"n":1}' },
    ]);
  });

  it('keeps media of a multimodal function response as attachments on the tool message', () => {
    const { history } = fromGemini([
      { role: 'user', parts: [{ text: 'screenshot' }] },
      { role: 'model', parts: [{ functionCall: { id: 'shot-1', name: 'screenshot', args: {} } }] },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'shot-1',
              name: 'screenshot',
              response: { ok: true },
              parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBO' } }],
            },
          },
        ],
      },
    ]);
    expect(history[2]).toEqual({
      role: 'tool',
      tool_call_id: 'shot-1',
      name: 'screenshot',
      content: '{"ok":true}',
      attachments: [{ mediaType: 'image/png', data: 'iVBO', source: 'base64' }],
    });
  });

  it('skips parts it does not model and adds no message when nothing is left', () => {
    const { history } = fromGemini([
      { role: 'user', parts: [{ text: 'run code' }] },
      { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }] },
      { role: 'model', parts: [{ text: 'It printed 1.' }] },
    ]);
    expect(history).toEqual([
      { role: 'user', content: 'run code' },
      { role: 'assistant', content: 'It printed 1.' },
    ]);
  });

  describe('rejects payloads that do not fit, naming the place', () => {
    it('rejects contents that are not an array and an unknown role', () => {
      expect(rejection({ contents: [] }).path).toBe('contents');
      const error = rejection([{ role: 'assistant', parts: [{ text: 'x' }] }]);
      expect(error.path).toBe('contents[0].role');
      expect(error.message).toBe(
        `contents[0].role: expected one of 'user', 'model', 'function', got "assistant"`,
      );
    });

    it('rejects a functionCall without a name', () => {
      const error = rejection([
        { role: 'user', parts: [{ text: 'x' }] },
        { role: 'model', parts: [{ functionCall: { args: {} } }] },
      ]);
      expect(error.path).toBe('contents[1].parts[0].functionCall.name');
    });

    it('rejects inlineData without a mimeType and a fileData URI that is not a URL', () => {
      expect(rejection([{ role: 'user', parts: [{ inlineData: { data: 'AAAA' } }] }]).path).toBe(
        'contents[0].parts[0].inlineData.mimeType',
      );
      expect(rejection([{ role: 'user', parts: [{ fileData: { fileUri: 'cat.jpg' } }] }]).path).toBe(
        'contents[0].parts[0].fileData.fileUri',
      );
    });

    it('rejects parts that are not objects and text that is not a string', () => {
      expect(rejection([{ role: 'user', parts: ['hello'] }]).path).toBe('contents[0].parts[0]');
      expect(rejection([{ role: 'user', parts: [{ text: 7 }] }]).path).toBe('contents[0].parts[0].text');
    });

    it('rejects a systemInstruction part that is not text', () => {
      const error = rejection([], { parts: [{ inlineData: { mimeType: 'image/png', data: 'x' } }] });
      expect(error.path).toBe('systemInstruction.parts[0]');
      expect(error.message).toContain('system instructions can only hold text');
    });
  });
});
