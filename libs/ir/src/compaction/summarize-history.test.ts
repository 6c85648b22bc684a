import { describe, expect, it } from 'vitest';
import { IRValidationError } from '../errors.js';
import { recordingSummarizer } from '../testing/recording-summarizer.js';
import type { Message } from '../types/message.js';
import { summarizeHistory } from './summarize-history.js';

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'lookup', arguments: '{}' },
});

function conversation(): Message[] {
  return [
    { role: 'user', content: 'tell me about cats' }, // turn 0
    { role: 'assistant', content: '', tool_calls: [call('c1'), call('c2')] }, // turn 1 (3 messages)
    { role: 'tool', content: 'cats purr', tool_call_id: 'c1' },
    { role: 'tool', content: 'cats sleep', tool_call_id: 'c2' },
    { role: 'assistant', content: 'Cats purr and sleep.' }, // turn 2
    { role: 'user', content: 'and dogs?' }, // turn 3
    { role: 'assistant', content: 'Dogs bark.' }, // turn 4
  ];
}

describe('summarizeHistory', () => {
  it('replaces the older turns with one user summary message and keeps the last turn', async () => {
    const { requests, summarize } = recordingSummarizer();
    const history = conversation();
    const result = await summarizeHistory(history, { summarize });
    expect(result.history).toHaveLength(2);
    expect(result.history[0]).toMatchObject({ role: 'user', _compaction_summary: true });
    expect(result.history[0]?.content).toContain('earlier talk');
    expect(result.history[1]).toBe(history[6]);
    expect(result.replaced).toEqual(history.slice(0, 6));
    expect(result.summary).toBe(result.history[0]);
    expect(requests[0]?.messages).toEqual(history.slice(0, 6));
  });

  it('never separates tool calls from their results when choosing what to keep', async () => {
    const { summarize } = recordingSummarizer();
    const history = conversation().slice(0, 5);
    // keep 2 turns: the tool turn (3 messages) and the final answer
    const result = await summarizeHistory(history, { summarize, keepRecentTurns: 2 });
    expect(result.history.slice(1)).toEqual(history.slice(1));
    expect(result.replaced).toEqual([history[0]]);
  });

  it('keeps pinned turns verbatim and in place, whole tool turns included', async () => {
    const { requests, summarize } = recordingSummarizer();
    const history = conversation();
    history[2] = { ...history[2], pinned: true } as Message;
    const result = await summarizeHistory(history, { summarize, keepRecentTurns: 1 });
    expect(result.history.map((m) => m.content)).toEqual([
      expect.stringContaining('earlier talk'),
      '',
      'cats purr',
      'cats sleep',
      'Dogs bark.',
    ]);
    expect(result.history[0]).toMatchObject({ role: 'user', _compaction_summary: true });
    expect(result.history.slice(1, 4)).toEqual(history.slice(1, 4));
    expect(requests[0]?.messages.map((m) => m.content)).toEqual([
      'tell me about cats',
      'Cats purr and sleep.',
      'and dogs?',
    ]);
  });

  it('puts the summary where the first summarised message was', async () => {
    const { summarize } = recordingSummarizer();
    const history: Message[] = [
      { role: 'user', content: 'the task', pinned: true },
      { role: 'assistant', content: 'step one' },
      { role: 'user', content: 'more' },
      { role: 'assistant', content: 'step two' },
    ];
    const result = await summarizeHistory(history, { summarize });
    expect(result.history.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
    expect(result.history[0]).toBe(history[0]);
    expect(result.history[1]?._compaction_summary).toBe(true);
  });

  it('keeps system messages in place and does not count them as turns', async () => {
    const { requests, summarize } = recordingSummarizer();
    const history: Message[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'system', content: 'late note' },
    ];
    const result = await summarizeHistory(history, { summarize, keepRecentTurns: 1 });
    expect(result.history.map((m) => m.content)).toEqual([
      'be brief',
      expect.stringContaining('earlier talk'),
      'two',
      'late note',
    ]);
    expect(requests[0]?.messages.map((m) => m.content)).toEqual(['one']);
  });

  it('summarises everything that is not pinned when keepRecentTurns is 0', async () => {
    const { summarize } = recordingSummarizer();
    const result = await summarizeHistory(conversation(), { summarize, keepRecentTurns: 0 });
    expect(result.history).toHaveLength(1);
    expect(result.replaced).toHaveLength(7);
  });

  it('does not call the summariser and returns the same array when there is nothing to summarise', async () => {
    const { requests, summarize } = recordingSummarizer();
    const history = conversation();
    const result = await summarizeHistory(history, { summarize, keepRecentTurns: 99 });
    expect(result.history).toBe(history);
    expect(result.replaced).toEqual([]);
    expect(result.summary).toBeUndefined();
    expect(requests).toHaveLength(0);
    expect((await summarizeHistory([], { summarize })).history).toEqual([]);
    expect(requests).toHaveLength(0);
  });

  it('leaves the history unchanged when the summary comes back blank', async () => {
    const { summarize } = recordingSummarizer('  <analysis>nothing</analysis>\n ');
    const history = conversation();
    const result = await summarizeHistory(history, { summarize });
    expect(result.history).toBe(history);
    expect(result.summary).toBeUndefined();
  });

  it('keeps only the summary block of the answer, without the analysis', async () => {
    const { summarize } = recordingSummarizer(
      '<analysis>secret scratch</analysis>\n<summary>\nline one\n\n\n\nline two\n</summary>',
    );
    const result = await summarizeHistory(conversation(), { summarize });
    expect(result.summary?.content).toContain('line one\n\nline two');
    expect(result.summary?.content).not.toContain('secret scratch');
  });

  it('asks the summariser to describe attachments, and passes them along by default', async () => {
    const { requests, summarize } = recordingSummarizer();
    const image = { mediaType: 'image/png', data: 'iVBOR', filename: 'cat.png' };
    const history: Message[] = [
      { role: 'user', content: 'look', attachments: [image] },
      { role: 'assistant', content: 'a cat' },
    ];
    await summarizeHistory(history, { summarize, additionalInstructions: 'Mention the cat colour.' });
    expect(requests[0]?.instructions).toMatch(/describe each one/);
    expect(requests[0]?.instructions).toMatch(/Additional instructions:\nMention the cat colour\.$/);
    expect(requests[0]?.messages[0]?.attachments).toEqual([image]);
  });

  it("replaces attachments with text placeholders for media: 'placeholder'", async () => {
    const { requests, summarize } = recordingSummarizer();
    const history: Message[] = [
      {
        role: 'user',
        content: 'look',
        attachments: [
          { mediaType: 'image/png', data: 'iVBOR', filename: 'cat.png' },
          { mediaType: 'application/pdf', data: 'JVBER' },
          { mediaType: '', data: 'xx' },
        ],
      },
      { role: 'assistant', content: 'seen' },
    ];
    await summarizeHistory(history, { summarize, media: 'placeholder' });
    expect(requests[0]?.messages[0]).toEqual({
      role: 'user',
      content: '[image: cat.png]\n[document]\n[attachment]\nlook',
    });
    expect(history[0]?.attachments).toHaveLength(3);
  });

  describe('toolResultStubThreshold', () => {
    const longOutput = 'x'.repeat(120);
    function withLongResults(): Message[] {
      return [
        { role: 'user', content: 'dig' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            call('c1'),
            call('c2'),
            { ...call('c3'), function: { name: 'grep', arguments: '{}' } },
          ],
        },
        { role: 'tool', content: longOutput, tool_call_id: 'c1' },
        { role: 'tool', content: 'short', tool_call_id: 'c2' },
        { role: 'tool', content: longOutput, tool_call_id: 'c3' },
        { role: 'tool', content: longOutput, tool_call_id: 'gone', name: 'fetch' },
        { role: 'tool', content: longOutput },
        { role: 'user', content: 'so?' },
      ];
    }

    it('sends tool results longer than the threshold as a stub naming the tool and the length', async () => {
      const { requests, summarize } = recordingSummarizer();
      const history = withLongResults();
      const result = await summarizeHistory(history, { summarize, toolResultStubThreshold: 100 });
      expect(requests[0]?.messages.slice(2).map((message) => message.content)).toEqual([
        '[Tool lookup returned 120 chars; omitted before summarization]',
        'short',
        '[Tool grep returned 120 chars; omitted before summarization]',
        '[Tool fetch returned 120 chars; omitted before summarization]',
        '[Tool unknown returned 120 chars; omitted before summarization]',
      ]);
      expect(requests[0]?.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
      expect(result.replaced).toEqual(history.slice(0, 7));
      expect(history[2]?.content).toBe(longOutput);
    });

    it('stubs every non-empty tool result at 0, and none without a threshold', async () => {
      const zero = recordingSummarizer();
      await summarizeHistory(withLongResults(), { summarize: zero.summarize, toolResultStubThreshold: 0 });
      expect(zero.requests[0]?.messages[3]?.content).toBe(
        '[Tool lookup returned 5 chars; omitted before summarization]',
      );
      const none = recordingSummarizer();
      await summarizeHistory(withLongResults(), { summarize: none.summarize });
      expect(none.requests[0]?.messages.slice(2, 7)).toEqual(withLongResults().slice(2, 7));
    });

    it('refuses a threshold that is not a number from 0, before calling the summariser', async () => {
      const { requests, summarize } = recordingSummarizer();
      for (const bad of [-1, Number.NaN, '100']) {
        const attempt = summarizeHistory(withLongResults(), {
          summarize,
          toolResultStubThreshold: bad as number,
        });
        await expect(attempt).rejects.toSatisfy(
          (error) => IRValidationError.is(error) && error.path === 'toolResultStubThreshold',
        );
      }
      expect(requests).toEqual([]);
    });
  });

  it('rethrows a summariser failure and leaves the input untouched', async () => {
    const history = conversation();
    const before = structuredClone(history);
    const summarize = async () => {
      throw new Error('model down');
    };
    await expect(summarizeHistory(history, { summarize })).rejects.toThrow('model down');
    expect(history).toEqual(before);
  });
});
