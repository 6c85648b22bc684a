import { describe, expect, it } from 'vitest';
import { IRValidationError } from '../errors.js';
import { fromOpenAI } from './from-openai.js';
import type { OpenAIChatMessageParam } from './openai-wire.js';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF_BASE64 = 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCg==';

function rejection(input: unknown): IRValidationError {
  try {
    fromOpenAI(input);
  } catch (error) {
    if (IRValidationError.is(error)) return error;
    throw error;
  }
  throw new Error('fromOpenAI accepted the input');
}

describe('fromOpenAI', () => {
  it('splits leading system and developer messages off and keeps a later system message in place', () => {
    const messages: OpenAIChatMessageParam[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'developer', content: [{ type: 'text', text: 'Answer in English.' }] },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'system', content: 'The user is now on the premium plan.' },
      { role: 'user', content: 'Thanks' },
    ];
    expect(fromOpenAI(messages)).toEqual({
      system: [
        { role: 'system', content: 'You are terse.' },
        { role: 'system', content: 'Answer in English.' },
      ],
      history: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'system', content: 'The user is now on the premium plan.', _positional: true },
        { role: 'user', content: 'Thanks' },
      ],
    });
  });

  it('keeps the participant name of system, developer, user and assistant messages', () => {
    const parsed = fromOpenAI([
      { role: 'developer', content: 'rules', name: 'ops' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }], name: 'alice' },
      { role: 'assistant', content: 'hello', name: 'helper' },
      { role: 'user', content: 'hi again', name: 'bob' },
    ]);
    expect(parsed).toEqual({
      system: [{ role: 'system', content: 'rules', name: 'ops' }],
      history: [
        { role: 'user', content: 'hi', name: 'alice' },
        { role: 'assistant', content: 'hello', name: 'helper' },
        { role: 'user', content: 'hi again', name: 'bob' },
      ],
    });
    expect(rejection([{ role: 'user', content: 'x', name: 7 }]).path).toBe('messages[0].name');
  });

  it('joins text parts with a newline and adds no attachments key when there is no media', () => {
    const { history } = fromOpenAI([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first line' },
          { type: 'text', text: 'second line' },
        ],
      },
    ]);
    expect(history).toEqual([{ role: 'user', content: 'first line\nsecond line' }]);
    expect(history[0]).not.toHaveProperty('attachments');
  });

  it('turns a data-URL image into raw base64 with the media type of the URL', () => {
    const { history } = fromOpenAI([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}`, detail: 'low' } },
        ],
      },
    ]);
    expect(history[0]).toEqual({
      role: 'user',
      content: 'What is in this image?',
      attachments: [{ mediaType: 'image/png', data: PNG_BASE64, source: 'base64', detail: 'low' }],
    });
  });

  it('keeps an http image as a URL, typed from its extension or else image/*', () => {
    const { history } = fromOpenAI([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          { type: 'image_url', image_url: { url: 'https://example.com/render?id=7' } },
        ],
      },
    ]);
    expect(history[0]?.attachments).toEqual([
      { mediaType: 'image/jpeg', data: 'https://example.com/cat.jpg', source: 'url' },
      { mediaType: 'image/*', data: 'https://example.com/render?id=7', source: 'url' },
    ]);
    expect(history[0]?.content).toBe('');
  });

  it('reads file parts by data URL or file id, keeping the filename and never calling a file an image', () => {
    const { history } = fromOpenAI([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summarise these.' },
          {
            type: 'file',
            file: { file_data: `data:application/pdf;base64,${PDF_BASE64}`, filename: 'q3.pdf' },
          },
          { type: 'file', file: { file_id: 'file-abc123' } },
          { type: 'file', file: { file_id: 'file-def456', filename: 'notes.PDF' } },
          { type: 'file', file: { file_data: PDF_BASE64, filename: 'raw.pdf' } },
        ],
      },
    ]);
    expect(history[0]?.attachments).toEqual([
      { mediaType: 'application/pdf', data: PDF_BASE64, source: 'base64', filename: 'q3.pdf' },
      { mediaType: 'application/octet-stream', data: 'file-abc123', source: 'file-id' },
      { mediaType: 'application/pdf', data: 'file-def456', source: 'file-id', filename: 'notes.PDF' },
      { mediaType: 'application/pdf', data: PDF_BASE64, source: 'base64', filename: 'raw.pdf' },
    ]);
  });

  it('turns input_audio into a base64 audio attachment', () => {
    const { history } = fromOpenAI([
      { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'mp3' } }] },
    ]);
    expect(history[0]?.attachments).toEqual([
      { mediaType: 'audio/mpeg', data: 'UklGRg==', source: 'base64' },
    ]);
  });

  it('skips content parts of unknown types so newer payloads still load', () => {
    const { history } = fromOpenAI([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'video_url', video_url: { url: 'x' } },
        ],
      },
    ]);
    expect(history).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('keeps a tool conversation, with tool calls verbatim and each result named after its call', () => {
    const messages: OpenAIChatMessageParam[] = [
      { role: 'user', content: 'Weather in Oslo and Bergen?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Bergen"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":4}' },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '{"temp":7}' }] },
      { role: 'assistant', content: 'Oslo 4°C, Bergen 7°C.' },
    ];
    expect(fromOpenAI(messages).history).toEqual([
      { role: 'user', content: 'Weather in Oslo and Bergen?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Bergen"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":4}', name: 'get_weather' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"temp":7}', name: 'get_weather' },
      { role: 'assistant', content: 'Oslo 4°C, Bergen 7°C.' },
    ]);
  });

  it('keeps malformed and empty tool-call arguments as text instead of throwing', () => {
    const { history } = fromOpenAI([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'broken', arguments: '{"city": "Os' } },
          { id: 'b', type: 'function', function: { name: 'empty', arguments: '' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'x' },
      { role: 'tool', tool_call_id: 'b', content: 'y' },
    ]);
    expect(history[1]?.tool_calls?.map((call) => call.function.arguments)).toEqual(['{"city": "Os', '']);
  });

  it('keeps assistant text and refusal parts, and the refusal field when there is no content', () => {
    const { history } = fromOpenAI([
      { role: 'user', content: 'a' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Part one.' },
          { type: 'refusal', refusal: 'I cannot do part two.' },
        ],
      },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: null, refusal: 'No.' },
    ]);
    expect(history[1]?.content).toBe('Part one.\nI cannot do part two.');
    expect(history[3]?.content).toBe('No.');
  });

  it('skips custom tool calls, so their results are dropped as orphans', () => {
    const { history } = fromOpenAI([
      { role: 'user', content: 'run it' },
      {
        role: 'assistant',
        content: 'ok',
        tool_calls: [{ id: 'ct_1', type: 'custom', custom: { name: 'shell', input: 'ls' } }],
      },
      { role: 'tool', tool_call_id: 'ct_1', content: 'a.txt' },
    ]);
    expect(history).toEqual([
      { role: 'user', content: 'run it' },
      { role: 'assistant', content: 'ok' },
    ]);
  });

  it('sanitises: drops orphan results, answers missing ones and starts with a user message', () => {
    const { system, history } = fromOpenAI([
      { role: 'system', content: 'sys' },
      { role: 'tool', tool_call_id: 'ghost', content: 'orphan' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }],
      },
    ]);
    expect(system).toEqual([{ role: 'system', content: 'sys' }]);
    expect(history).toEqual([
      { role: 'user', content: '[Conversation continues]' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '[No tool result available]', name: 'search' },
    ]);
  });

  it('pairs the deprecated function_call with the following function message', () => {
    const { history } = fromOpenAI([
      { role: 'user', content: 'time?' },
      { role: 'assistant', content: null, function_call: { name: 'clock', arguments: '{}' } },
      { role: 'function', name: 'clock', content: '12:00' },
    ]);
    expect(history.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'openai-fn-clock-0', type: 'function', function: { name: 'clock', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'openai-fn-clock-0', content: '12:00', name: 'clock' },
    ]);
  });

  describe('rejects payloads that do not fit, naming the place', () => {
    it('rejects a non-array', () => {
      const error = rejection({ messages: [] });
      expect(error.path).toBe('messages');
      expect(error.message).toBe('messages: expected an array of Chat Completions messages, got an object');
    });

    it('rejects a message that is not an object and an unknown role', () => {
      expect(rejection(['hello']).path).toBe('messages[0]');
      const error = rejection([
        { role: 'user', content: 'a' },
        { role: 'bot', content: 'b' },
      ]);
      expect(error.path).toBe('messages[1].role');
      expect(error.message).toContain(`got "bot"`);
    });

    it('rejects an image part without an image_url object', () => {
      const error = rejection([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', url: 'https://x/y.png' },
          ],
        },
      ]);
      expect(error.path).toBe('messages[3].content[1].image_url');
      expect(error.message).toBe(
        'messages[3].content[1].image_url: expected an object with a `url`, got undefined (missing)',
      );
    });

    it('rejects an image URL that is neither remote nor a base64 data URL', () => {
      const error = rejection([
        { role: 'user', content: [{ type: 'image_url', image_url: { url: './cat.png' } }] },
      ]);
      expect(error.path).toBe('messages[0].content[0].image_url.url');
      expect(error.message).toContain('"./cat.png"');
    });

    it('rejects a file part with neither file_data nor file_id', () => {
      const error = rejection([{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf' } }] }]);
      expect(error.path).toBe('messages[0].content[0].file');
    });

    it('rejects a tool message without tool_call_id and a tool call without a function', () => {
      expect(rejection([{ role: 'tool', content: 'x' }]).path).toBe('messages[0].tool_call_id');
      const error = rejection([
        { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function' }] },
      ]);
      expect(error.path).toBe('messages[0].tool_calls[0].function');
    });

    it('rejects a text part whose text is not a string, and content of the wrong type', () => {
      expect(rejection([{ role: 'user', content: [{ type: 'text', text: 5 }] }]).path).toBe(
        'messages[0].content[0].text',
      );
      expect(rejection([{ role: 'user', content: 42 }]).path).toBe('messages[0].content');
    });
  });
});
