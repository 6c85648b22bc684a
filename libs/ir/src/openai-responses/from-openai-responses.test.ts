import { describe, expect, it } from 'vitest';
import { IRValidationError } from '../errors.js';
import type { ToolCall } from '../types/message.js';
import { fromOpenAIResponses } from './from-openai-responses.js';
import type { ResponsesInputItem, ResponsesReasoningItem } from './openai-responses-wire.js';

function rejection(items: unknown, instructions?: unknown): IRValidationError {
  try {
    fromOpenAIResponses(items, instructions as string | undefined);
  } catch (error) {
    if (IRValidationError.is(error)) return error;
    throw error;
  }
  throw new Error('fromOpenAIResponses accepted the input');
}

const call = (id: string, name: string, args: string): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

const reasoning = (id: string): ResponsesReasoningItem => ({
  type: 'reasoning',
  id,
  summary: [{ type: 'summary_text', text: `Plan for ${id}.` }],
  content: [{ type: 'reasoning_text', text: 'step by step' }],
  encrypted_content: `gAAAAABo${id}Zk9xV2w3b1R0c0p3Q2tq==`,
});

describe('fromOpenAIResponses', () => {
  it('puts instructions, system and developer messages in system, accepting string content and items without type', () => {
    const parsed = fromOpenAIResponses(
      [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Cite sources.' }] },
        { role: 'system', content: 'No emojis.' },
        { role: 'user', content: 'Hello' },
      ],
      'You are a librarian.',
    );
    expect(parsed).toEqual({
      system: [
        { role: 'system', content: 'You are a librarian.' },
        { role: 'system', content: 'Cite sources.' },
        { role: 'system', content: 'No emojis.' },
      ],
      history: [{ role: 'user', content: 'Hello' }],
    });
  });

  it('reads a plain string input as one user message', () => {
    expect(fromOpenAIResponses('Tell me a joke.').history).toEqual([
      { role: 'user', content: 'Tell me a joke.' },
    ]);
  });

  it('converts a model turn with reasoning, parallel calls, their outputs and the answer', () => {
    const thought = reasoning('rs_1');
    const items: ResponsesInputItem[] = [
      { role: 'user', content: [{ type: 'input_text', text: 'Weather in Oslo and Rome?' }] },
      thought,
      { type: 'function_call', call_id: 'call_A', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call', call_id: 'call_B', name: 'get_weather', arguments: '{"city":"Rome"}' },
      { type: 'function_call_output', call_id: 'call_A', output: '{"temp":2}' },
      { type: 'function_call_output', call_id: 'call_B', output: '{"temp":17}' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Oslo 2°C, Rome 17°C.' }],
      },
      { role: 'user', content: [{ type: 'input_text', text: 'Thanks!' }] },
    ];
    const { history } = fromOpenAIResponses(items);
    expect(history).toEqual([
      { role: 'user', content: 'Weather in Oslo and Rome?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          call('call_A', 'get_weather', '{"city":"Oslo"}'),
          call('call_B', 'get_weather', '{"city":"Rome"}'),
        ],
        _openai_reasoning: [thought],
      },
      { role: 'tool', tool_call_id: 'call_A', content: '{"temp":2}', name: 'get_weather' },
      { role: 'tool', tool_call_id: 'call_B', content: '{"temp":17}', name: 'get_weather' },
      { role: 'assistant', content: 'Oslo 2°C, Rome 17°C.' },
      { role: 'user', content: 'Thanks!' },
    ]);
  });

  it('keeps reasoning items byte-identical: the same objects, encrypted_content untouched', () => {
    const thought = reasoning('rs_9');
    const before = JSON.stringify(thought);
    const { history } = fromOpenAIResponses([
      { role: 'user', content: 'q' },
      thought,
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
    ]);
    const kept = history[1]?._openai_reasoning;
    expect(kept?.[0]).toBe(thought);
    expect(JSON.stringify(kept?.[0])).toBe(before);
  });

  it('joins each output behind its call by call_id, in call order, even when outputs come first', () => {
    const { history } = fromOpenAIResponses([
      { role: 'user', content: 'go' },
      { type: 'function_call_output', call_id: 'c2', output: 'two' },
      { type: 'function_call_output', call_id: 'c1', output: 'one' },
      { type: 'function_call', call_id: 'c1', name: 'first', arguments: '{}' },
      { type: 'function_call', call_id: 'c2', name: 'second', arguments: '{}' },
    ]);
    expect(history.slice(1)).toEqual([
      { role: 'assistant', content: '', tool_calls: [call('c1', 'first', '{}'), call('c2', 'second', '{}')] },
      { role: 'tool', tool_call_id: 'c1', content: 'one', name: 'first' },
      { role: 'tool', tool_call_id: 'c2', content: 'two', name: 'second' },
    ]);
  });

  it('merges a call into the open assistant message, and starts a new one after an output', () => {
    const { history } = fromOpenAIResponses([
      { role: 'user', content: 'go' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking it up.' }] },
      { type: 'function_call', call_id: 'c1', name: 'search', arguments: '{"q":"a"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'A' },
      { type: 'function_call', call_id: 'c2', name: 'search', arguments: '{"q":"b"}' },
      { type: 'function_call_output', call_id: 'c2', output: 'B' },
    ]);
    expect(history.slice(1)).toEqual([
      { role: 'assistant', content: 'Looking it up.', tool_calls: [call('c1', 'search', '{"q":"a"}')] },
      { role: 'tool', tool_call_id: 'c1', content: 'A', name: 'search' },
      { role: 'assistant', content: '', tool_calls: [call('c2', 'search', '{"q":"b"}')] },
      { role: 'tool', tool_call_id: 'c2', content: 'B', name: 'search' },
    ]);
  });

  it('turns trailing reasoning into an empty assistant message that carries it', () => {
    const thought = reasoning('rs_end');
    const { history } = fromOpenAIResponses([{ role: 'user', content: 'q' }, thought]);
    expect(history).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', _openai_reasoning: [thought] },
    ]);
  });

  it('turns input_image and input_file parts into normalised attachments', () => {
    const { history } = fromOpenAIResponses([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Read these.' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
          { type: 'input_image', image_url: 'https://example.com/chart.png' },
          { type: 'input_image', file_id: 'file-img1' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'a.pdf' },
          { type: 'input_file', file_url: 'https://example.com/b.pdf' },
          { type: 'input_file', file_id: 'file-xyz' },
        ],
      },
    ]);
    expect(history[0]).toEqual({
      role: 'user',
      content: 'Read these.',
      attachments: [
        { mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64', detail: 'auto' },
        { mediaType: 'image/png', data: 'https://example.com/chart.png', source: 'url' },
        { mediaType: 'image/*', data: 'file-img1', source: 'file-id' },
        { mediaType: 'application/pdf', data: 'JVBERi0x', source: 'base64', filename: 'a.pdf' },
        { mediaType: 'application/pdf', data: 'https://example.com/b.pdf', source: 'url' },
        { mediaType: 'application/octet-stream', data: 'file-xyz', source: 'file-id' },
      ],
    });
  });

  it('keeps text and media of an array output on the tool message', () => {
    const { history } = fromOpenAIResponses([
      { role: 'user', content: 'screenshot' },
      { type: 'function_call', call_id: 'c', name: 'shot', arguments: '{}' },
      {
        type: 'function_call_output',
        call_id: 'c',
        output: [
          { type: 'input_text', text: 'done' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/' },
        ],
      },
    ]);
    expect(history[2]).toEqual({
      role: 'tool',
      tool_call_id: 'c',
      content: 'done',
      name: 'shot',
      attachments: [{ mediaType: 'image/jpeg', data: '/9j/', source: 'base64' }],
    });
  });

  it('keeps malformed and empty arguments as text', () => {
    const { history } = fromOpenAIResponses([
      { role: 'user', content: 'x' },
      { type: 'function_call', call_id: 'a', name: 'f', arguments: '{"unterminated' },
      { type: 'function_call', call_id: 'b', name: 'g', arguments: '' },
      { type: 'function_call_output', call_id: 'a', output: '1' },
      { type: 'function_call_output', call_id: 'b', output: '2' },
    ]);
    expect(history[1]?.tool_calls?.map((toolCall) => toolCall.function.arguments)).toEqual([
      '{"unterminated',
      '',
    ]);
  });

  it('sanitises: drops outputs without a call, answers calls without output, starts with a user message', () => {
    const { history } = fromOpenAIResponses([
      { type: 'function_call_output', call_id: 'nobody', output: 'stale' },
      { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{}' },
    ]);
    expect(history).toEqual([
      { role: 'user', content: '[Conversation continues]' },
      { role: 'assistant', content: '', tool_calls: [call('c1', 'lookup', '{}')] },
      { role: 'tool', tool_call_id: 'c1', content: '[No tool result available]', name: 'lookup' },
    ]);
  });

  describe('items of types the IR does not model', () => {
    it('keeps them verbatim in _openai_responses_items on the assistant message they precede', () => {
      const search = {
        type: 'web_search_call',
        id: 'ws_1',
        status: 'completed',
        action: { type: 'search', query: 'x' },
      };
      const thought = reasoning('rs_1');
      const { history } = fromOpenAIResponses([
        { role: 'user', content: 'news?' },
        thought,
        search,
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Here is the news.' }] },
      ]);
      expect(history[1]).toEqual({
        role: 'assistant',
        content: 'Here is the news.',
        _openai_reasoning: [thought],
        _openai_responses_items: [search],
      });
      expect(history[1]?._openai_responses_items?.[0]).toBe(search);
    });

    it('keeps the original order when reasoning follows such an item', () => {
      const first = reasoning('rs_1');
      const second = reasoning('rs_2');
      const search = { type: 'web_search_call', id: 'ws_1', status: 'completed' };
      const { history } = fromOpenAIResponses([
        { role: 'user', content: 'news?' },
        first,
        search,
        second,
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
      ]);
      expect(history.slice(1)).toEqual([
        { role: 'assistant', content: '', _openai_reasoning: [first], _openai_responses_items: [search] },
        { role: 'assistant', content: 'Done.', _openai_reasoning: [second] },
      ]);
    });

    it('closes pending items before a user message instead of moving them past it', () => {
      const reference = { type: 'item_reference', id: 'msg_prev' };
      const { history } = fromOpenAIResponses([
        { role: 'user', content: 'a' },
        reference,
        { role: 'user', content: 'b' },
      ]);
      expect(history).toEqual([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '', _openai_responses_items: [reference] },
        { role: 'user', content: 'b' },
      ]);
    });
  });

  describe('rejects payloads that do not fit, naming the place', () => {
    it('rejects items that are not a list and items that are not objects', () => {
      expect(rejection(42).message).toBe(
        'items: expected a string or an array of Responses input items, got a number',
      );
      expect(rejection([{ role: 'user', content: 'a' }, null]).path).toBe('items[1]');
    });

    it('rejects an item with neither type nor role, and a message with an unknown role', () => {
      expect(rejection([{ content: 'x' }]).path).toBe('items[0].type');
      expect(rejection([{ role: 'tool', content: 'x' }]).path).toBe('items[0].role');
    });

    it('rejects a function_call without call_id', () => {
      const error = rejection([
        { role: 'user', content: 'x' },
        { type: 'function_call', name: 'f', arguments: '{}' },
      ]);
      expect(error.path).toBe('items[1].call_id');
    });

    it('rejects an input_image with no image, and an image URL that is not a URL', () => {
      const empty = rejection([{ role: 'user', content: [{ type: 'input_image', detail: 'low' }] }]);
      expect(empty.path).toBe('items[0].content[0]');
      const relative = rejection([
        { role: 'user', content: [{ type: 'input_image', image_url: 'img/cat.png' }] },
      ]);
      expect(relative.path).toBe('items[0].content[0].image_url');
    });

    it('rejects instructions that are not a string', () => {
      expect(rejection([], { text: 'x' }).path).toBe('instructions');
    });
  });
});
