import type { Message } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { toOpenAIMessages } from './to-openai-messages.js';

const call = (id: string, name: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: '{}' },
});
const image = { mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64' as const };

describe('toOpenAIMessages', () => {
  it('keeps a text-only tool result as one tool message', () => {
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', tool_calls: [call('c1', 'lookup')] },
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
    ];
    expect(toOpenAIMessages(messages).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
    ]);
  });

  it('moves media of parallel tool results into one user message after all the tool messages', () => {
    const messages: Message[] = [
      { role: 'user', content: 'compare' },
      { role: 'assistant', content: '', tool_calls: [call('c1', 'shot'), call('c2', 'shot')] },
      { role: 'tool', tool_call_id: 'c1', content: 'first', attachments: [image] },
      { role: 'tool', tool_call_id: 'c2', content: '', attachments: [image] },
    ];
    const sent = toOpenAIMessages(messages).slice(2);
    expect(sent.map((message) => message.role)).toEqual(['tool', 'tool', 'user']);
    expect(sent[0]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'first' });
    expect(sent[1]).toMatchObject({
      role: 'tool',
      tool_call_id: 'c2',
      content: expect.stringContaining('media'),
    });
    expect(sent[2]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    });
  });
});
