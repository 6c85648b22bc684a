import { describe, expect, it } from 'vitest';
import { TOOL_MEDIA_FOLLOWS_TEXT } from '../shared/tool-media-follows-text.js';
import { compileCollectingWarnings } from '../testing/compile-collecting-warnings.js';
import { PNG } from '../testing/sample-media.js';
import { toolCall } from '../testing/tool-call.js';
import type { Message } from '../types/message.js';
import type { CompileContext } from '../types/target-adapter.js';
import { GeminiAdapter } from './compile-gemini.js';

const call = (id: string, name = 'look', args?: string) => toolCall(id, name, args);

function compile(messages: Message[], context: CompileContext = {}, adapter = new GeminiAdapter()) {
  return compileCollectingWarnings(adapter, messages, context);
}

describe('GeminiAdapter', () => {
  it('hoists system text into systemInstruction, maps assistant to model and keeps a positional system as user text', () => {
    const { payload } = compile([
      { role: 'system', content: 'be terse' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'system', content: 'new rule', _positional: true },
      { role: 'user', content: 'go' },
    ]);
    expect(payload.systemInstruction).toEqual({ parts: [{ text: 'be terse' }] });
    expect(payload.messages).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'hello' }] },
      { role: 'user', parts: [{ text: 'new rule' }, { text: 'go' }] },
    ]);
  });

  it('has no systemInstruction without system messages and drops cache breakpoints', () => {
    const { payload } = compile([{ role: 'user', content: 'q', _cache_breakpoint: true }]);
    expect('systemInstruction' in payload).toBe(false);
    expect(JSON.stringify(payload)).not.toContain('cache');
  });

  describe('tool calls and results', () => {
    it('emits functionCall parts with ids and parsed args, and one content of named functionResponses', () => {
      const { payload } = compile([
        { role: 'user', content: 'weather in Oslo and Rome' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [call('c1', 'weather', '{"city":"Oslo"}'), call('c2', 'weather', '{"city":"Rome"}')],
        },
        { role: 'tool', content: '{"temp":3}', tool_call_id: 'c1' },
        { role: 'tool', content: 'sunny', tool_call_id: 'c2' },
      ]);
      expect(payload.messages.slice(1)).toEqual([
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'c1', name: 'weather', args: { city: 'Oslo' } } },
            { functionCall: { id: 'c2', name: 'weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'c1', name: 'weather', response: { temp: 3 } } },
            { functionResponse: { id: 'c2', name: 'weather', response: { result: 'sunny' } } },
          ],
        },
      ]);
    });

    it('puts text before calls only when there is text, wraps non-object JSON and reports failures as error', () => {
      const { payload } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'checking', tool_calls: [call('c1'), call('c2')] },
        { role: 'tool', content: '[1,2]', tool_call_id: 'c1' },
        { role: 'tool', content: 'boom', tool_call_id: 'c2', _tool_error: true },
      ]);
      expect(payload.messages[1]!.parts![0]).toEqual({ text: 'checking' });
      expect(payload.messages[2]!.parts).toEqual([
        { functionResponse: { id: 'c1', name: 'look', response: { result: [1, 2] } } },
        { functionResponse: { id: 'c2', name: 'look', response: { error: 'boom' } } },
      ]);
    });

    it('sends {} for empty or malformed arguments and warns for the malformed ones', () => {
      const { payload, warnings } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', tool_calls: [call('a', 'f', ''), call('b', 'f', 'not json')] },
      ]);
      expect(payload.messages[1]!.parts!.map((part) => part.functionCall?.args)).toEqual([{}, {}]);
      expect(warnings.map((warning) => [warning.code, warning.messageIndex])).toEqual([
        ['tool-arguments-invalid', 1],
      ]);
    });

    it('splits tool-result media into a user content right after the function responses', () => {
      const { payload } = compile([
        { role: 'user', content: 'two screenshots' },
        { role: 'assistant', content: '', tool_calls: [call('c1', 'shot'), call('c2', 'shot')] },
        {
          role: 'tool',
          content: '',
          tool_call_id: 'c1',
          attachments: [{ mediaType: 'image/png', data: PNG }],
        },
        {
          role: 'tool',
          content: 'second',
          tool_call_id: 'c2',
          attachments: [{ mediaType: 'image/jpeg', data: 'gs://b/2.jpg' }],
        },
        { role: 'user', content: 'compare them' },
      ]);
      expect(payload.messages.slice(2)).toEqual([
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'c1', name: 'shot', response: { result: TOOL_MEDIA_FOLLOWS_TEXT } } },
            { functionResponse: { id: 'c2', name: 'shot', response: { result: 'second' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'image/png', data: PNG } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'gs://b/2.jpg' } },
            { text: 'compare them' },
          ],
        },
      ]);
    });
  });

  describe('thought signatures', () => {
    it('re-emits call signatures on their functionCall parts and the text signature on the text part', () => {
      const { payload } = compile([
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'Let me check.',
          _gemini_thought_signature: 'text-sig',
          tool_calls: [{ ...call('c1'), thoughtSignature: 'call-sig' }, call('c2')],
        },
        { role: 'tool', content: 'a', tool_call_id: 'c1' },
        { role: 'tool', content: 'b', tool_call_id: 'c2' },
      ]);
      expect(payload.messages[1]!.parts).toEqual([
        { text: 'Let me check.', thoughtSignature: 'text-sig' },
        { functionCall: { id: 'c1', name: 'look', args: {} }, thoughtSignature: 'call-sig' },
        { functionCall: { id: 'c2', name: 'look', args: {} } },
      ]);
    });

    it('keeps a text signature on an empty text part rather than losing it', () => {
      const { payload } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', _gemini_thought_signature: 'sig', tool_calls: [call('c1')] },
        { role: 'tool', content: 'a', tool_call_id: 'c1' },
      ]);
      expect(payload.messages[1]!.parts![0]).toEqual({ text: '', thoughtSignature: 'sig' });
    });
  });

  describe('prefill', () => {
    it('turns a trailing plain model reply into a [System Note] in the last user text, keeping its media', () => {
      const { payload, codes } = compile([
        { role: 'user', content: 'Describe', attachments: [{ mediaType: 'image/png', data: PNG }] },
        { role: 'assistant', content: 'The image shows' },
      ]);
      expect(payload.messages).toHaveLength(1);
      const [text, image] = payload.messages[0]!.parts!;
      expect(text!.text).toContain(
        'Describe\n\n[System Note] SYSTEM INSTRUCTION: Your response MUST start verbatim with',
      );
      expect(text!.text).toContain('The image shows');
      expect(image).toEqual({ inlineData: { mimeType: 'image/png', data: PNG } });
      expect(codes).toEqual(['prefill-degraded']);
    });

    it('puts the instruction into systemInstruction when there is no user message', () => {
      const { payload } = compile([
        { role: 'system', content: 'sys' },
        { role: 'assistant', content: 'Yes' },
      ]);
      expect(payload.messages).toEqual([]);
      expect(payload.systemInstruction!.parts[1]!.text).toContain('MUST start verbatim with "Yes"');
    });

    it('does not treat a trailing model turn with calls as a prefill', () => {
      const { payload, codes } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', tool_calls: [call('c1')] },
      ]);
      expect(payload.messages.at(-1)!.role).toBe('model');
      expect(codes).toEqual([]);
    });
  });

  describe('thinking', () => {
    const thinker: Message = {
      role: 'assistant',
      content: 'Four.',
      thinking: { thinking: '2+2', signature: 'anthropic-sig' },
      redacted_thinking: { data: 'SECRET' },
    };
    const messages: Message[] = [{ role: 'user', content: 'q' }, thinker, { role: 'user', content: 'ok' }];

    it('strips thinking by default, adds no thought part and reports the redacted part once', () => {
      const { payload, codes } = compile([...messages, { ...thinker }, { role: 'user', content: 'again' }]);
      expect(payload.messages[1]).toEqual({ role: 'model', parts: [{ text: 'Four.' }] });
      expect(codes).toEqual(['redacted-thinking-dropped']);
    });

    it('keeps thinking as a <thinking> prefix when asked, never the redacted part, with one warning', () => {
      const adapter = new GeminiAdapter({ preserveThinkingAsText: true });
      const { payload, codes } = compile(
        [...messages, { ...thinker }, { role: 'user', content: 'again' }],
        {},
        adapter,
      );
      expect(payload.messages[1]!.parts).toEqual([{ text: '<thinking>\n2+2\n</thinking>\n\nFour.' }]);
      expect(JSON.stringify(payload)).not.toContain('SECRET');
      expect(JSON.stringify(payload)).not.toContain('anthropic-sig');
      expect(codes).toEqual(['redacted-thinking-dropped']);
    });
  });

  describe('attachments', () => {
    it('sends base64 as inlineData and URLs as fileData, and notes a bare file id', () => {
      const { payload, codes } = compile([
        {
          role: 'user',
          content: 'see',
          attachments: [
            { mediaType: 'image/png', data: `data:image/png;base64,${PNG}` },
            {
              mediaType: 'application/pdf',
              data: 'https://generativelanguage.googleapis.com/v1beta/files/x',
              source: 'url',
            },
            { mediaType: 'application/pdf', data: 'file-abc', source: 'file-id' },
          ],
        },
      ]);
      expect(payload.messages[0]!.parts).toEqual([
        { text: 'see' },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        {
          fileData: {
            mimeType: 'application/pdf',
            fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/x',
          },
        },
        { text: '[attachment omitted: application/pdf (file-id)]' },
      ]);
      expect(codes).toEqual(['attachment-unsupported']);
    });

    it('drops media on model turns with a warning', () => {
      const { payload, codes } = compile([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', attachments: [{ mediaType: 'image/png', data: PNG }] },
        { role: 'user', content: 'q2' },
      ]);
      expect(payload.messages[1]).toEqual({ role: 'model', parts: [{ text: 'a' }] });
      expect(codes).toEqual(['attachment-unsupported']);
    });
  });

  it('never copies internal or unknown fields into the payload', () => {
    const { payload } = compile([
      { role: 'user', content: 'q', _x: 1, name: 'alice', pinned: true },
      {
        role: 'assistant',
        content: 'a',
        _openai_reasoning: [{ type: 'reasoning', encrypted_content: 'enc' }],
        _openai_responses_items: [{ type: 'web_search_call' }],
        _cache_breakpoint: true,
        _y: 2,
        tool_calls: [call('c1')],
      },
      { role: 'tool', content: 'r', tool_call_id: 'c1', _z: 3 },
    ]);
    const text = JSON.stringify(payload.messages);
    for (const field of [
      '_x',
      '_y',
      '_z',
      'alice',
      'pinned',
      'enc',
      'web_search',
      'cache',
      'attachments',
      'tool_call_id',
    ]) {
      expect(text).not.toContain(field);
    }
  });

  it('converts tools to functionDeclarations with a schema Gemini accepts', () => {
    const { payload } = compile([{ role: 'user', content: 'q' }], {
      tools: [
        {
          name: 'search',
          description: 'Search',
          tags: ['web'],
          parameters: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            additionalProperties: false,
            properties: {
              query: { type: 'string', minLength: 1 },
              limit: { type: ['integer', 'null'], exclusiveMinimum: 0 },
              filter: { $ref: '#/$defs/filter' },
              kind: { const: 'news' },
              either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
            },
            required: ['query', 'ghost'],
            $defs: {
              filter: {
                type: 'object',
                additionalProperties: false,
                properties: { site: { type: 'string' } },
              },
            },
          },
        },
        { name: 'now', description: 'Time', parameters: { type: 'object', properties: {} } },
      ],
    });
    expect(payload.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'search',
            description: 'Search',
            parameters: {
              type: 'object',
              properties: {
                query: { type: 'string', minLength: 1 },
                limit: { type: 'integer', nullable: true },
                filter: { type: 'object', properties: { site: { type: 'string' } } },
                kind: { enum: ['news'], type: 'string' },
                either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
              },
              required: ['query'],
            },
          },
          { name: 'now', description: 'Time' },
        ],
      },
    ]);
  });

  it('does not mutate the input messages', () => {
    const messages: Message[] = [
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: 'pre' },
    ];
    const copy = structuredClone(messages);
    compile(messages);
    expect(messages).toEqual(copy);
  });
});
