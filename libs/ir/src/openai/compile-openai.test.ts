import { describe, expect, it } from 'vitest';
import { TOOL_MEDIA_FOLLOWS_TEXT } from '../shared/tool-media-follows-text.js';
import { compileCollectingWarnings } from '../testing/compile-collecting-warnings.js';
import { PNG } from '../testing/sample-media.js';
import { toolCall } from '../testing/tool-call.js';
import type { Message } from '../types/message.js';
import { OpenAIAdapter } from './compile-openai.js';

function compileWithWarnings(messages: Message[], adapter = new OpenAIAdapter()) {
  return compileCollectingWarnings(adapter, messages);
}

describe('OpenAIAdapter', () => {
  it('keeps system, user and assistant messages inline and in order as strings', () => {
    const { payload } = compileWithWarnings([
      { role: 'system', content: 'be terse' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', tool_calls: [] },
      { role: 'system', content: 'later rule', _positional: true },
      { role: 'user', content: 'again' },
    ]);
    expect(payload.messages).toEqual([
      { role: 'system', content: 'be terse' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'system', content: 'later rule' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('emits tool calls and tool results in the Chat Completions shape', () => {
    const { payload } = compileWithWarnings([
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Oslo"}' },
            thoughtSignature: 'sig',
          },
        ],
      },
      { role: 'tool', content: 'rain', tool_call_id: 'c1', name: 'weather' },
    ]);
    expect(payload.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'rain' },
    ]);
  });

  it('never copies internal or unknown fields into the payload', () => {
    const junk: Message = {
      role: 'assistant',
      content: 'answer',
      _cache_breakpoint: true,
      _positional: true,
      _gemini_thought_signature: 'g-sig',
      _openai_reasoning: [{ type: 'reasoning', encrypted_content: 'x' }],
      _openai_responses_items: [{ type: 'web_search_call' }],
      _x: 1,
      pinned: true,
      thinking: { thinking: 'hmm', signature: 's' },
      redacted_thinking: { data: 'r' },
      tool_calls: [
        { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, thoughtSignature: 't' },
      ],
    };
    const { payload } = compileWithWarnings([
      { role: 'user', content: 'q', _cache_breakpoint: true, _x: 2, name: 'alice' },
      junk,
      { role: 'tool', content: 'r', tool_call_id: 'c', name: 'f', _tool_error: true, _x: 3 },
    ]);
    const text = JSON.stringify(payload.messages);
    for (const field of [
      '_cache',
      '_positional',
      '_gemini',
      '_openai',
      '_x',
      'pinned',
      'thinking',
      'thoughtSignature',
      'attachments',
      '_tool_error',
    ]) {
      expect(text).not.toContain(field);
    }
    expect(payload.messages[2]).toEqual({ role: 'tool', tool_call_id: 'c', content: 'r' });
  });

  it('sends the participant name of user, system and assistant messages, never a tool name', () => {
    const { payload } = compileWithWarnings([
      { role: 'system', content: 'rules', name: 'moderator' },
      { role: 'user', content: 'hi', name: 'alice' },
      { role: 'assistant', content: '', name: 'helper', tool_calls: [toolCall('c1', 'lookup', '{}')] },
      { role: 'tool', content: 'found', tool_call_id: 'c1', name: 'lookup' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(payload.messages).toEqual([
      { role: 'system', content: 'rules', name: 'moderator' },
      { role: 'user', content: 'hi', name: 'alice' },
      {
        role: 'assistant',
        content: '',
        name: 'helper',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  describe('prefill', () => {
    it('turns a trailing plain assistant into a [System Note] in the last user text and warns', () => {
      const { payload, warnings } = compileWithWarnings([
        { role: 'user', content: 'Write JSON.', attachments: [{ mediaType: 'image/png', data: PNG }] },
        { role: 'assistant', content: '{"a":' },
      ]);
      expect(payload.messages).toHaveLength(1);
      const parts = payload.messages[0]!.content as Array<{ type: string; text?: string }>;
      expect(parts[0]!.text).toContain('Write JSON.\n\n[System Note]');
      expect(parts[0]!.text).toContain('SYSTEM INSTRUCTION: Your response MUST start verbatim with');
      expect(parts[0]!.text).toContain('{"a":');
      expect(parts[1]!.type).toBe('image_url');
      expect(warnings.map((warning) => warning.code)).toEqual(['prefill-degraded']);
    });

    it('leaves a trailing assistant with tool calls alone', () => {
      const messages: Message[] = [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'x',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
      ];
      const { payload, warnings } = compileWithWarnings(messages);
      expect(payload.messages).toHaveLength(2);
      expect(warnings).toEqual([]);
    });

    it('puts the instruction on the system message when there is no user message', () => {
      const { payload } = compileWithWarnings([
        { role: 'system', content: 'sys' },
        { role: 'assistant', content: 'Sure' },
      ]);
      expect(payload.messages).toHaveLength(1);
      expect(payload.messages[0]!.content).toContain('MUST start verbatim with "Sure"');
    });

    it('does not mutate the input messages', () => {
      const messages: Message[] = [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'A' },
      ];
      const copy = structuredClone(messages);
      compileWithWarnings(messages);
      expect(messages).toEqual(copy);
    });
  });

  describe('attachments', () => {
    it('sends base64, URL and file-id attachments in their exact wire forms', () => {
      const { payload, warnings } = compileWithWarnings([
        {
          role: 'user',
          content: 'look',
          attachments: [
            { mediaType: 'image/png', data: PNG },
            { mediaType: 'image/jpeg', data: 'https://x.test/a.jpg', source: 'url' },
            { mediaType: 'application/pdf', data: 'JVBER', filename: 'r.pdf' },
            { mediaType: 'application/pdf', data: 'file-abc', source: 'file-id' },
            { mediaType: 'audio/wav', data: 'UklGR' },
            { mediaType: 'application/pdf', data: 'data:application/pdf;base64,JVBER' },
          ],
        },
      ]);
      expect(payload.messages[0]!.content).toEqual([
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'image_url', image_url: { url: 'https://x.test/a.jpg' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBER', filename: 'r.pdf' } },
        { type: 'file', file: { file_id: 'file-abc' } },
        { type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBER', filename: 'file.pdf' } },
      ]);
      expect(warnings).toEqual([]);
    });

    it('replaces forms Chat Completions cannot take by a text note, with one warning each', () => {
      const { payload, warnings } = compileWithWarnings([
        {
          role: 'user',
          content: '',
          attachments: [
            { mediaType: 'image/png', data: 'file-img', source: 'file-id' },
            { mediaType: 'application/pdf', data: 'https://x.test/a.pdf' },
            { mediaType: 'image/png', data: 'gs://bucket/a.png' },
          ],
        },
      ]);
      expect(payload.messages[0]!.content).toEqual([
        { type: 'text', text: '[attachment omitted: image/png (file-id)]' },
        { type: 'text', text: '[attachment omitted: application/pdf (url)]' },
        { type: 'text', text: '[attachment omitted: image/png (url)]' },
      ]);
      expect(warnings.map((warning) => [warning.code, warning.messageIndex])).toEqual([
        ['attachment-unsupported', 0],
        ['attachment-unsupported', 0],
        ['attachment-unsupported', 0],
      ]);
    });

    it('drops attachments on assistant and system messages with a warning', () => {
      const { payload, warnings } = compileWithWarnings([
        { role: 'system', content: 's', attachments: [{ mediaType: 'image/png', data: PNG }] },
        { role: 'user', content: 'u' },
        {
          role: 'assistant',
          content: 'a',
          attachments: [{ mediaType: 'image/png', data: PNG }],
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', content: 'ok', tool_call_id: 'c' },
      ]);
      expect(payload.messages[0]).toEqual({ role: 'system', content: 's' });
      expect(payload.messages[2]!.content).toBe('a');
      expect(warnings.map((warning) => [warning.code, warning.messageIndex])).toEqual([
        ['attachment-unsupported', 0],
        ['attachment-unsupported', 2],
      ]);
    });
  });

  describe('tool results with media', () => {
    const call = (id: string) => ({
      id,
      type: 'function' as const,
      function: { name: 'shot', arguments: '{}' },
    });

    it('splits a media tool result into a tool message and a following user message', () => {
      const { payload } = compileWithWarnings([
        { role: 'user', content: 'screenshot' },
        { role: 'assistant', content: '', tool_calls: [call('c1')] },
        {
          role: 'tool',
          content: '',
          tool_call_id: 'c1',
          attachments: [{ mediaType: 'image/png', data: PNG }],
        },
      ]);
      expect(payload.messages.slice(2)).toEqual([
        { role: 'tool', tool_call_id: 'c1', content: TOOL_MEDIA_FOLLOWS_TEXT },
        {
          role: 'user',
          content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }],
        },
      ]);
      expect(TOOL_MEDIA_FOLLOWS_TEXT).toBe('[The tool returned media; it follows in the next message.]');
    });

    it('keeps every tool message of a parallel batch before the one media message', () => {
      const { payload } = compileWithWarnings([
        { role: 'user', content: 'two shots' },
        { role: 'assistant', content: '', tool_calls: [call('c1'), call('c2')] },
        {
          role: 'tool',
          content: 'first',
          tool_call_id: 'c1',
          attachments: [{ mediaType: 'image/png', data: PNG }],
        },
        {
          role: 'tool',
          content: 'second',
          tool_call_id: 'c2',
          attachments: [{ mediaType: 'image/jpeg', data: '/9j/' }],
        },
        { role: 'user', content: 'thanks' },
      ]);
      expect(payload.messages.slice(2).map((message) => message.role)).toEqual([
        'tool',
        'tool',
        'user',
        'user',
      ]);
      expect(payload.messages[2]!.content).toBe('first');
      expect(payload.messages[4]!.content).toEqual([
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } },
      ]);
    });

    it('keeps a text-only tool result as a single tool message', () => {
      const { payload } = compileWithWarnings([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', tool_calls: [call('c1')] },
        { role: 'tool', content: 'done', tool_call_id: 'c1' },
      ]);
      expect(payload.messages).toHaveLength(3);
    });
  });

  describe('thinking', () => {
    const thinker: Message = {
      role: 'assistant',
      content: 'The answer is 4.',
      thinking: { thinking: '2+2', signature: 'sig' },
    };

    it('strips signed thinking by default, without warnings', () => {
      const { payload, warnings } = compileWithWarnings([
        { role: 'user', content: 'q' },
        thinker,
        { role: 'user', content: 'ok' },
      ]);
      expect(payload.messages[1]).toEqual({ role: 'assistant', content: 'The answer is 4.' });
      expect(warnings).toEqual([]);
    });

    it('keeps thinking as a <thinking> text prefix when asked', () => {
      const adapter = new OpenAIAdapter({ preserveThinkingAsText: true });
      const { payload } = compileWithWarnings(
        [{ role: 'user', content: 'q' }, thinker, { role: 'user', content: 'ok' }],
        adapter,
      );
      expect(payload.messages[1]!.content).toBe('<thinking>\n2+2\n</thinking>\n\nThe answer is 4.');
    });

    it.each([true, false])(
      'never textifies redacted thinking and warns exactly once per compile (preserve: %s)',
      (preserve) => {
        const adapter = new OpenAIAdapter({ preserveThinkingAsText: preserve });
        const redacted: Message = { role: 'assistant', content: 'a', redacted_thinking: { data: 'SECRET' } };
        const messages: Message[] = [
          { role: 'user', content: 'q' },
          redacted,
          { role: 'user', content: 'q2' },
          { ...redacted, content: 'b' },
          { role: 'user', content: 'q3' },
        ];
        const first = compileWithWarnings(messages, adapter);
        const second = compileWithWarnings(messages, adapter);
        expect(JSON.stringify(first.payload)).not.toContain('SECRET');
        expect(first.warnings.map((warning) => warning.code)).toEqual(['redacted-thinking-dropped']);
        expect(second.warnings.map((warning) => warning.code)).toEqual(['redacted-thinking-dropped']);
      },
    );
  });

  describe('tools and warnings', () => {
    it('converts tools to { type: "function", function } and leaves out tags and deferLoading', () => {
      const payload = new OpenAIAdapter().compile([{ role: 'user', content: 'q' }], {
        tools: [
          {
            name: 'search',
            description: 'Search the web',
            parameters: { type: 'object', properties: { q: { type: 'string' } } },
            tags: ['web'],
            deferLoading: true,
          },
          { name: 'now', description: '' },
        ],
      });
      expect(payload.tools).toEqual([
        {
          type: 'function',
          function: {
            name: 'search',
            description: 'Search the web',
            parameters: { type: 'object', properties: { q: { type: 'string' } } },
          },
        },
        { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
      ]);
    });

    it('has no tools key without tools', () => {
      expect('tools' in new OpenAIAdapter().compile([{ role: 'user', content: 'q' }], { tools: [] })).toBe(
        false,
      );
    });

    it('lists warnings in meta and logs them with console.warn when no onWarning is given', () => {
      const logged: unknown[] = [];
      const original = console.warn;
      console.warn = (...args: unknown[]) => logged.push(args.join(' '));
      try {
        const payload = new OpenAIAdapter().compile([
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'prefix' },
        ]);
        expect(payload.meta.warnings.map((warning) => warning.code)).toEqual(['prefill-degraded']);
        expect(logged).toHaveLength(1);
        expect(String(logged[0])).toContain('prefill-degraded');
      } finally {
        console.warn = original;
      }
    });
  });
});
