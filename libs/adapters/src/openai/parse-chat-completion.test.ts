import { ValueTooDeepError } from '@flotilla/runtime';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { toolArgumentsText } from '../shared/tool-arguments-text.js';
import { parseChatCompletion } from './parse-chat-completion.js';

const completion = (message: Record<string, unknown>) =>
  ({ choices: [{ index: 0, message, finish_reason: 'tool_calls' }] }) as unknown as ChatCompletion;

describe('parseChatCompletion on a malformed answer', () => {
  it('never throws a TypeError: what has the wrong shape is passed on for the runtime to name', () => {
    expect(
      parseChatCompletion(completion({ tool_calls: [{ id: 'c1', type: 'function' }] })).message.tool_calls,
    ).toEqual([{ id: 'c1', type: 'function', function: undefined }]);
    expect(parseChatCompletion(completion({ tool_calls: { id: 'c1' } })).message.tool_calls).toEqual({
      id: 'c1',
    });
    expect(parseChatCompletion({ choices: null } as unknown as ChatCompletion).message).toEqual({
      role: 'assistant',
      content: '',
    });
  });
});

describe('toolArgumentsText', () => {
  it('refuses arguments deeper than any run accepts with ValueTooDeepError instead of a RangeError', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 5000; level++) deep = { next: deep };
    expect(() => toolArgumentsText(deep, 'gemini')).toThrow(ValueTooDeepError);
    expect(toolArgumentsText({ q: 'x' }, 'gemini')).toBe('{"q":"x"}');
  });
});
