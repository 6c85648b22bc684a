import { describe, expect, it } from 'vitest';
import { anthropicRules, chatCompletionsRules, geminiRules, responsesRules } from './provider-wire-rules.js';

const call = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } };

describe('the provider wire rules of the local test servers', () => {
  it('Chat Completions: a call needs its tool message, and messages carry no foreign fields', () => {
    expect(chatCompletionsRules({ messages: [{ role: 'user', content: 'q' }] })).toEqual([]);
    expect(
      chatCompletionsRules({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: null, tool_calls: [call], thinking: { thinking: 'x' } },
          { role: 'user', content: 'next' },
        ],
      }),
    ).toEqual(["messages[1]: unknown field 'thinking'", 'messages[2]: tool calls c1 have no tool message']);
  });

  it('Responses: outputs need their call, reasoning needs a following item', () => {
    expect(
      responsesRules({
        input: [
          { role: 'user', content: [{ type: 'input_text', text: 'q' }] },
          { type: 'function_call_output', call_id: 'c9', output: 'x' },
          { type: 'reasoning', id: 'rs_1', summary: [] },
        ],
      }),
    ).toEqual([
      "input[1]: no function call found for output 'c9'",
      'input[2]: reasoning item provided without its required following item',
    ]);
  });

  it('Gemini: an unsigned call is refused in the current turn only', () => {
    const turn = (signature?: string) => [
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: signature }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
    ];
    const user = { role: 'user', parts: [{ text: 'q' }] };
    expect(geminiRules({ contents: [user, ...turn(), user] })).toEqual([]);
    expect(geminiRules({ contents: [user, ...turn('sig')] })).toEqual([]);
    expect(geminiRules({ contents: [user, ...turn()] })).toEqual([
      'contents[1]: function call in the current turn is missing a thought_signature',
    ]);
  });

  it('Anthropic: tool results right after their calls, signed thinking, a thinking start in a thinking tool loop, 4 breakpoints', () => {
    const use = { type: 'tool_use', id: 't1', name: 'f', input: {} };
    const result = { type: 'tool_result', tool_use_id: 't1', content: 'ok' };
    const loop = (first: Record<string, unknown>[]) => [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [...first, use] },
      { role: 'user', content: [result] },
    ];
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    expect(
      anthropicRules({ thinking, messages: loop([{ type: 'thinking', thinking: 't', signature: 's' }]) }),
    ).toEqual([]);
    expect(anthropicRules({ messages: loop([]) })).toEqual([]);
    expect(
      anthropicRules({ thinking, messages: loop([{ type: 'thinking', thinking: 't', signature: '' }]) }),
    ).toEqual(['messages[1]: thinking.signature: Field required']);
    expect(anthropicRules({ thinking, messages: loop([]) })).toEqual([
      "messages: expected 'thinking' or 'redacted_thinking' first in the assistant turn of a tool loop when thinking is enabled",
    ]);
    expect(
      anthropicRules({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: [use] },
          { role: 'user', content: 'no result' },
        ],
      }),
    ).toEqual(['messages[2]: tool_use ids t1 were found without tool_result blocks immediately after']);
    const cached = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    expect(
      anthropicRules({
        cache_control: { type: 'ephemeral' },
        messages: [{ role: 'user', content: [cached, cached, cached, cached] }],
      }),
    ).toEqual(['a maximum of 4 blocks with cache_control may be provided, found 5']);
  });
});
