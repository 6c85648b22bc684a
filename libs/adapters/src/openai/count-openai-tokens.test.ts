import { estimateTokens } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { countOpenAITokens, openAIEncodingOf } from './count-openai-tokens.js';
import { createOpenAIAdapter } from './create-openai-adapter.js';

describe('countOpenAITokens', () => {
  it('chooses the encoding by model id', () => {
    expect(openAIEncodingOf('gpt-4o-mini')).toBe('o200k_base');
    expect(openAIEncodingOf('gpt-4.1')).toBe('o200k_base');
    expect(openAIEncodingOf('o3-mini')).toBe('o200k_base');
    expect(openAIEncodingOf('gpt-4-turbo')).toBe('cl100k_base');
    expect(openAIEncodingOf('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(openAIEncodingOf('some-future-model')).toBe('o200k_base');
  });

  it('counts with the real tokenizer, not the 4-characters estimate', async () => {
    // 1,000 repeats of one word: a tokenizer sees ~1,000 tokens, the estimate 1,500.
    const messages = [{ role: 'user' as const, content: 'hello '.repeat(1000) }];
    const counted = await countOpenAITokens('gpt-4o', messages);
    expect(counted).toBeLessThan(estimateTokens(messages));
    expect(counted).toBeGreaterThanOrEqual(1000);
  });

  it('is what the OpenAI adapter reports as countTokens', async () => {
    const adapter = createOpenAIAdapter({ model: 'gpt-4o-mini', apiKey: 'test' });
    const messages = [{ role: 'user' as const, content: 'How many tokens is this?' }];
    expect(await adapter.countTokens?.(messages)).toBe(await countOpenAITokens('gpt-4o-mini', messages));
  });
});
