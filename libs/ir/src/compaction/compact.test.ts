import { describe, expect, it } from 'vitest';
import { validationRejection } from '../testing/validation-rejection.js';
import type { Message } from '../types/message.js';
import { type CompactOptions, compact, TOOL_RESULT_CLEARED } from './compact.js';

const call = (id: string, name = 'search') => ({
  id,
  type: 'function' as const,
  function: { name, arguments: '{"q":"x"}' },
});

function toolConversation(): Message[] {
  return [
    { role: 'user', content: 'find things' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [call('c1')],
      thinking: { thinking: 'I should search', signature: 'sig-a' },
    },
    { role: 'tool', content: 'result one', tool_call_id: 'c1', name: 'search' },
    { role: 'assistant', content: '', tool_calls: [call('c2')] },
    {
      role: 'tool',
      content: 'result two',
      tool_call_id: 'c2',
      attachments: [{ mediaType: 'image/png', data: 'AAAA' }],
    },
    { role: 'assistant', content: '', tool_calls: [call('c3')] },
    { role: 'tool', content: 'result three', tool_call_id: 'c3' },
    { role: 'assistant', content: 'done', redacted_thinking: { data: 'opaque' } },
  ];
}

const toolContents = (history: Message[]) => history.filter((m) => m.role === 'tool').map((m) => m.content);

describe('compact', () => {
  describe("clear: ['tool-results']", () => {
    it('replaces every tool result with the cleared placeholder and keeps ids, names and calls', () => {
      const history = toolConversation();
      const result = compact(history, { clear: ['tool-results'] });
      expect(toolContents(result)).toEqual([TOOL_RESULT_CLEARED, TOOL_RESULT_CLEARED, TOOL_RESULT_CLEARED]);
      expect(result[2]).toMatchObject({ tool_call_id: 'c1', name: 'search' });
      expect(result[1]?.tool_calls).toEqual([call('c1')]);
      expect(result[4]).not.toHaveProperty('attachments');
    });

    it('leaves user and assistant messages untouched, by reference', () => {
      const history = toolConversation();
      const result = compact(history, { clear: ['tool-results'] });
      expect(result[0]).toBe(history[0]);
      expect(result[1]).toBe(history[1]);
      expect(result[7]).toBe(history[7]);
    });

    it('does not mutate the input', () => {
      const history = toolConversation();
      const before = structuredClone(history);
      compact(history, { clear: ['tool-results', 'thinking'] });
      expect(history).toEqual(before);
    });
  });

  describe('keepRecent', () => {
    it('keeps the last N tool results intact', () => {
      const result = compact(toolConversation(), { clear: [{ target: 'tool-results', keepRecent: 2 }] });
      expect(toolContents(result)).toEqual([TOOL_RESULT_CLEARED, 'result two', 'result three']);
    });

    it('floors 0 and fractions to at least one kept result', () => {
      expect(
        toolContents(compact(toolConversation(), { clear: [{ target: 'tool-results', keepRecent: 0 }] })),
      ).toEqual([TOOL_RESULT_CLEARED, TOOL_RESULT_CLEARED, 'result three']);
      expect(
        toolContents(compact(toolConversation(), { clear: [{ target: 'tool-results', keepRecent: 2.9 }] })),
      ).toEqual([TOOL_RESULT_CLEARED, 'result two', 'result three']);
    });

    it('clears nothing when keepRecent exceeds the number of tool results', () => {
      const history = toolConversation();
      expect(compact(history, { clear: [{ target: 'tool-results', keepRecent: 10 }] })).toBe(history);
    });
  });

  describe("clear: ['thinking']", () => {
    it('removes thinking and redacted_thinking from assistant messages but keeps their content', () => {
      const result = compact(toolConversation(), { clear: ['thinking'] });
      expect(result[1]).not.toHaveProperty('thinking');
      expect(result[7]).not.toHaveProperty('redacted_thinking');
      expect(result[7]?.content).toBe('done');
      expect(toolContents(result)).toEqual(['result one', 'result two', 'result three']);
    });

    it('keeps Gemini thought signatures and OpenAI reasoning items', () => {
      const reasoning = [{ type: 'reasoning', id: 'rs_1', encrypted_content: 'enc', summary: [] }];
      const history: Message[] = [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'thinking out loud',
          thinking: { thinking: 'hmm' },
          _gemini_thought_signature: 'text-sig',
          _openai_reasoning: reasoning,
          tool_calls: [{ ...call('c1'), thoughtSignature: 'call-sig' }],
        },
        { role: 'tool', content: 'ok', tool_call_id: 'c1' },
      ];
      const [, assistant] = compact(history, { clear: ['thinking'] });
      expect(assistant).not.toHaveProperty('thinking');
      expect(assistant?._gemini_thought_signature).toBe('text-sig');
      expect(assistant?.tool_calls?.[0]?.thoughtSignature).toBe('call-sig');
      expect(assistant?._openai_reasoning).toBe(reasoning);
    });

    it('leaves thinking-like fields on non-assistant messages alone', () => {
      const history: Message[] = [
        { role: 'user', content: 'x', thinking: { thinking: 'odd but user-owned' } },
      ];
      expect(compact(history, { clear: ['thinking'] })).toBe(history);
    });

    it('produces messages whose JSON has no thinking keys at all', () => {
      const json = JSON.stringify(compact(toolConversation(), { clear: ['thinking'] }));
      expect(json).not.toContain('thinking');
    });
  });

  describe("ContextChef's spelling 'tool-result'", () => {
    it('clears every tool result, like tool-results', () => {
      expect(toolContents(compact(toolConversation(), { clear: ['tool-result'] }))).toEqual([
        TOOL_RESULT_CLEARED,
        TOOL_RESULT_CLEARED,
        TOOL_RESULT_CLEARED,
      ]);
    });

    it('keeps the last N results in the keepRecent form too', () => {
      const result = compact(toolConversation(), { clear: [{ target: 'tool-result', keepRecent: 1 }] });
      expect(toolContents(result)).toEqual([TOOL_RESULT_CLEARED, TOOL_RESULT_CLEARED, 'result three']);
    });
  });

  describe('when the clear option is not one it knows', () => {
    const rejection = (options: unknown) =>
      validationRejection(() => compact(toolConversation(), options as CompactOptions));

    it('refuses a misspelt target instead of clearing nothing, naming the entry and what it accepts', () => {
      const error = rejection({ clear: ['thinking', 'tool_results'] });
      expect(error.path).toBe('clear[1]');
      expect(error.message).toContain('"tool_results"');
      expect(error.message).toContain("'tool-results'");
    });

    it('refuses an object form with an unknown target or a keepRecent that is not a number', () => {
      expect(rejection({ clear: [{ target: 'messages', keepRecent: 2 }] }).path).toBe('clear[0]');
      expect(rejection({ clear: [{ target: 'tool-results', keepRecent: '2' }] }).path).toBe(
        'clear[0].keepRecent',
      );
      expect(rejection({ clear: [{ target: 'tool-results' }] }).path).toBe('clear[0].keepRecent');
      expect(rejection({ clear: [{ target: 'tool-results', keepRecent: Number.NaN }] }).path).toBe(
        'clear[0].keepRecent',
      );
    });

    it('refuses a clear option that is not a list', () => {
      expect(rejection({ clear: 'tool-results' }).path).toBe('clear');
      expect(rejection({}).path).toBe('clear');
    });
  });

  it('returns the input itself when the clear list is empty', () => {
    const history = toolConversation();
    expect(compact(history, { clear: [] })).toBe(history);
  });

  it('returns an empty list for an empty history', () => {
    expect(compact([], { clear: ['tool-results', 'thinking'] })).toEqual([]);
  });
});
