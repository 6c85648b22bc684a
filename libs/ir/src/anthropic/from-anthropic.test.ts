import { describe, expect, it } from 'vitest';
import { IRValidationError } from '../errors.js';
import type { AnthropicMessageParam, AnthropicTextBlock } from './anthropic-wire.js';
import { fromAnthropic } from './from-anthropic.js';

const JPEG_BASE64 =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcp';
const PDF_BASE64 = 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCg==';

function rejection(messages: unknown, system?: unknown): IRValidationError {
  try {
    fromAnthropic(messages, system);
  } catch (error) {
    if (IRValidationError.is(error)) return error;
    throw error;
  }
  throw new Error('fromAnthropic accepted the input');
}

describe('fromAnthropic', () => {
  it('turns system text blocks into system messages, carrying cache_control as a breakpoint', () => {
    const system: AnthropicTextBlock[] = [
      { type: 'text', text: 'You are a support agent.' },
      { type: 'text', text: '<policies>…</policies>', cache_control: { type: 'ephemeral' } },
    ];
    const parsed = fromAnthropic([{ role: 'user', content: 'Hello' }], system);
    expect(parsed).toEqual({
      system: [
        { role: 'system', content: 'You are a support agent.' },
        { role: 'system', content: '<policies>…</policies>', _cache_breakpoint: true },
      ],
      history: [{ role: 'user', content: 'Hello' }],
    });
  });

  it('accepts a plain string system prompt and no system at all', () => {
    expect(fromAnthropic([{ role: 'user', content: 'x' }], 'Be brief.').system).toEqual([
      { role: 'system', content: 'Be brief.' },
    ]);
    expect(fromAnthropic([{ role: 'user', content: 'x' }]).system).toEqual([]);
  });

  it('joins text blocks and turns image sources into normalised attachments', () => {
    const messages: AnthropicMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these three.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG_BASE64 } },
          { type: 'image', source: { type: 'url', url: 'https://upload.example.org/photo.webp' } },
          { type: 'image', source: { type: 'file', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' } },
          { type: 'text', text: 'Which is sharpest?' },
        ],
      },
    ];
    expect(fromAnthropic(messages).history).toEqual([
      {
        role: 'user',
        content: 'Compare these three.\nWhich is sharpest?',
        attachments: [
          { mediaType: 'image/jpeg', data: JPEG_BASE64, source: 'base64' },
          { mediaType: 'image/webp', data: 'https://upload.example.org/photo.webp', source: 'url' },
          { mediaType: 'image/*', data: 'file_011CNha8iCJcU1wXNR6q4V8w', source: 'file-id' },
        ],
      },
    ]);
  });

  it('keeps an image-only message with empty content', () => {
    const { history } = fromAnthropic([
      {
        role: 'user',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } }],
      },
    ]);
    expect(history).toEqual([
      {
        role: 'user',
        content: '',
        attachments: [{ mediaType: 'image/png', data: 'iVBO', source: 'base64' }],
      },
    ]);
  });

  it('turns every kind of document source into attachments or text, with the title as filename', () => {
    const { history } = fromAnthropic([
      {
        role: 'user',
        content: [
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 },
            title: 'contract.pdf',
          },
          { type: 'document', source: { type: 'url', url: 'https://example.com/spec' } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Grass is green.' } },
          { type: 'document', source: { type: 'file', file_id: 'file_01' } },
          { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'Chunk one.' }] } },
        ],
      },
    ]);
    expect(history[0]).toEqual({
      role: 'user',
      content: 'Chunk one.',
      attachments: [
        { mediaType: 'application/pdf', data: PDF_BASE64, source: 'base64', filename: 'contract.pdf' },
        { mediaType: 'application/pdf', data: 'https://example.com/spec', source: 'url' },
        {
          mediaType: 'text/plain',
          data: Buffer.from('Grass is green.').toString('base64'),
          source: 'base64',
        },
        { mediaType: 'application/octet-stream', data: 'file_01', source: 'file-id' },
      ],
    });
  });

  it('converts a full tool round trip with thinking, results first and named after their call', () => {
    const messages: AnthropicMessageParam[] = [
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should call the weather tool.', signature: 'EqQBCgIYAhIM1gbcDa9' },
          { type: 'text', text: 'Let me check.' },
          {
            type: 'tool_use',
            id: 'toolu_01A',
            name: 'get_weather',
            input: { location: 'Paris', unit: 'celsius' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01A',
            content: [{ type: 'text', text: '15°C, cloudy' }],
          },
          { type: 'text', text: 'Also, is that warm?' },
        ],
      },
      { role: 'assistant', content: 'It is 15°C and cloudy in Paris; mild, not warm.' },
    ];
    expect(fromAnthropic(messages).history).toEqual([
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          {
            id: 'toolu_01A',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' },
          },
        ],
        thinking: { thinking: 'I should call the weather tool.', signature: 'EqQBCgIYAhIM1gbcDa9' },
      },
      { role: 'tool', tool_call_id: 'toolu_01A', content: '15°C, cloudy', name: 'get_weather' },
      { role: 'user', content: 'Also, is that warm?' },
      { role: 'assistant', content: 'It is 15°C and cloudy in Paris; mild, not warm.' },
    ]);
  });

  it('makes one tool message per tool_result, keeping images and the error flag', () => {
    const { history } = fromAnthropic([
      { role: 'user', content: 'Screenshot both pages.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'screenshot', input: { url: 'https://a.example' } },
          { type: 'tool_use', id: 't2', name: 'screenshot', input: { url: 'https://b.example' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              { type: 'text', text: 'Captured.' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
            ],
          },
          { type: 'tool_result', tool_use_id: 't2', content: 'Timeout after 30s', is_error: true },
        ],
      },
    ]);
    expect(history.slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 't1',
        content: 'Captured.',
        attachments: [{ mediaType: 'image/png', data: 'iVBO', source: 'base64' }],
        name: 'screenshot',
      },
      {
        role: 'tool',
        tool_call_id: 't2',
        content: 'Timeout after 30s',
        _tool_error: true,
        name: 'screenshot',
      },
    ]);
  });

  it('keeps redacted thinking and the last of several thinking blocks', () => {
    const { history } = fromAnthropic([
      { role: 'user', content: 'Think hard.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'first', signature: 's1' },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
          { type: 'thinking', thinking: 'second', signature: 's2' },
          { type: 'text', text: 'Done.' },
        ],
      },
    ]);
    expect(history[1]).toEqual({
      role: 'assistant',
      content: 'Done.',
      thinking: { thinking: 'second', signature: 's2' },
      redacted_thinking: { data: 'EmwKAhgBEgy3va3pzix' },
    });
  });

  it('marks the message, or the tool result, that carries cache_control', () => {
    const { history } = fromAnthropic([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Long context…', cache_control: { type: 'ephemeral' } }],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'read', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't',
            content: 'file body',
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
    expect(history[0]).toEqual({ role: 'user', content: 'Long context…', _cache_breakpoint: true });
    expect(history[1]).not.toHaveProperty('_cache_breakpoint');
    expect(history[2]).toEqual({
      role: 'tool',
      tool_call_id: 't',
      content: 'file body',
      _cache_breakpoint: true,
      name: 'read',
    });
  });

  it('skips server-tool blocks and adds no message when nothing is left', () => {
    const { history } = fromAnthropic([
      { role: 'user', content: 'Search the web.' },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] },
    ]);
    expect(history).toEqual([
      { role: 'user', content: 'Search the web.' },
      { role: 'assistant', content: 'Found it.' },
    ]);
  });

  it('defaults missing tool input to {} and sanitises missing results and orphans', () => {
    const { history } = fromAnthropic([
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'ghost', content: 'stale' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'list_files' }] },
    ]);
    expect(history).toEqual([
      { role: 'user', content: '[Conversation continues]' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'toolu_9', type: 'function', function: { name: 'list_files', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_9', content: '[No tool result available]', name: 'list_files' },
    ]);
  });

  describe('rejects payloads that do not fit, naming the place', () => {
    it('rejects messages that are not an array and a system role inside messages', () => {
      expect(rejection('hello').path).toBe('messages');
      const error = rejection([{ role: 'system', content: 'x' }]);
      expect(error.path).toBe('messages[0].role');
      expect(error.message).toBe(`messages[0].role: expected one of 'user', 'assistant', got "system"`);
    });

    it('rejects a base64 image without media_type', () => {
      const error = rejection([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'c' },
            { type: 'image', source: { type: 'base64', data: 'x' } },
          ],
        },
      ]);
      expect(error.path).toBe('messages[2].content[1].source.media_type');
    });

    it('rejects an unknown source type and a URL source without url', () => {
      const unknownSource = rejection([
        { role: 'user', content: [{ type: 'image', source: { type: 'path', path: '/x' } }] },
      ]);
      expect(unknownSource.path).toBe('messages[0].content[0].source.type');
      const noUrl = rejection([{ role: 'user', content: [{ type: 'document', source: { type: 'url' } }] }]);
      expect(noUrl.path).toBe('messages[0].content[0].source.url');
    });

    it('rejects a tool_use without id and a tool_result without tool_use_id', () => {
      expect(
        rejection([{ role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] }]).path,
      ).toBe('messages[0].content[0].id');
      expect(rejection([{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }]).path).toBe(
        'messages[0].content[0].tool_use_id',
      );
    });

    it('rejects a system parameter that is not text', () => {
      expect(rejection([], 42).path).toBe('system');
      expect(rejection([], [{ type: 'image', source: {} }]).path).toBe('system[0].type');
    });
  });
});
