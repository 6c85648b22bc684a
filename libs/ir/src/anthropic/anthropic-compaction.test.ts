import { describe, expect, it } from 'vitest';
import { summarizeHistory } from '../compaction/summarize-history.js';
import { GeminiAdapter } from '../gemini/compile-gemini.js';
import { OpenAIAdapter } from '../openai/compile-openai.js';
import { OpenAIResponsesAdapter } from '../openai-responses/compile-openai-responses.js';
import { compileCollectingWarnings } from '../testing/compile-collecting-warnings.js';
import type { Message } from '../types/message.js';
import type { ITargetAdapter } from '../types/target-adapter.js';
import { AnthropicAdapter } from './compile-anthropic.js';
import { fromAnthropic } from './from-anthropic.js';

/** An Anthropic conversation where the API compacted the context server-side. */
const compacted = [
  { role: 'user', content: 'hello' },
  {
    role: 'assistant',
    content: [
      { type: 'compaction', content: 'S' },
      { type: 'text', text: 'T' },
    ],
  },
  { role: 'user', content: 'go on' },
];

describe('Anthropic server-side compaction blocks', () => {
  it('keeps the block’s summary on a pinned message when reading Anthropic messages', () => {
    expect(fromAnthropic(compacted).history).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'T', _anthropic_compaction: 'S', pinned: true },
      { role: 'user', content: 'go on' },
    ]);
  });

  it('keeps a message that holds nothing but the compaction block', () => {
    const parsed = fromAnthropic([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'compaction', content: 'S' }] },
    ]);
    expect(parsed.history.at(-1)).toEqual({
      role: 'assistant',
      content: '',
      _anthropic_compaction: 'S',
      pinned: true,
    });
  });

  it('skips a failed compaction (null content), which the API ignores', () => {
    const parsed = fromAnthropic([
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: [
          { type: 'compaction', content: null },
          { type: 'text', text: 'T' },
        ],
      },
    ]);
    expect(parsed.history.at(-1)).toEqual({ role: 'assistant', content: 'T' });
  });

  it('sends the block back to Anthropic unchanged, before the rest of its message', () => {
    const { history } = fromAnthropic(compacted);
    const { payload, codes } = compileCollectingWarnings(new AnthropicAdapter(), history);
    expect(codes).toEqual([]);
    expect(payload.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
      {
        role: 'assistant',
        content: [
          { type: 'compaction', content: 'S' },
          { type: 'text', text: 'T' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
    ]);
  });

  it('puts a cache breakpoint of the block’s message on the message’s last block', () => {
    const { history } = fromAnthropic([
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: [{ type: 'compaction', content: 'S', cache_control: { type: 'ephemeral' } }],
      },
    ]);
    expect(history.at(-1)?._cache_breakpoint).toBe(true);
    const { payload } = compileCollectingWarnings(new AnthropicAdapter(), history);
    expect(payload.messages.at(-1)?.content).toEqual([
      { type: 'compaction', content: 'S', cache_control: { type: 'ephemeral' } },
    ]);
  });

  const others: Array<[string, ITargetAdapter]> = [
    ['openai', new OpenAIAdapter()],
    ['gemini', new GeminiAdapter()],
    ['openai-responses', new OpenAIResponsesAdapter()],
  ];
  for (const [name, adapter] of others) {
    it(`is dropped with an anthropic-compaction-dropped warning on the ${name} target`, () => {
      const { history } = fromAnthropic(compacted);
      const { payload, warnings } = compileCollectingWarnings(adapter, history);
      expect(warnings).toEqual([
        expect.objectContaining({ code: 'anthropic-compaction-dropped', messageIndex: 1 }),
      ]);
      expect(JSON.stringify(payload)).not.toContain('"S"');
      expect(JSON.stringify(payload)).toContain('"T"');
    });
  }

  it('is never folded into a summary by summarizeHistory (the message is pinned)', async () => {
    const history: Message[] = [...fromAnthropic(compacted).history, { role: 'assistant', content: 'ok' }];
    const seen: Message[][] = [];
    const result = await summarizeHistory(history, {
      keepRecentTurns: 0,
      summarize: async ({ messages }) => {
        seen.push(messages);
        return 'summary';
      },
    });
    expect(seen[0]?.some((message) => message._anthropic_compaction !== undefined)).toBe(false);
    expect(result.history).toContainEqual(history[1]);
  });
});
