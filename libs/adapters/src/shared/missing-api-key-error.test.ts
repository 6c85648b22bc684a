import { describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../anthropic/create-anthropic-adapter.js';
import { createGeminiAdapter } from '../gemini/create-gemini-adapter.js';
import { createOpenAIAdapter } from '../openai/create-openai-adapter.js';
import { MissingApiKeyError } from './missing-api-key-error.js';

describe('creating a model adapter without an API key', () => {
  it('throws MissingApiKeyError naming the environment variables to set', () => {
    const saved = { ...process.env };
    for (const name of ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'ANTHROPIC_API_KEY'])
      delete process.env[name];
    try {
      const openai = (() => createOpenAIAdapter({ model: 'gpt-4.1-mini' })) as () => unknown;
      const gemini = (() => createGeminiAdapter({ model: 'gemini-2.5-flash' })) as () => unknown;
      expect(openai).toThrow(/OPENAI_API_KEY/);
      const anthropic = (() => createAnthropicAdapter({ model: 'claude-sonnet-4-5' })) as () => unknown;
      expect(gemini).toThrow(/GEMINI_API_KEY or GOOGLE_API_KEY/);
      expect(anthropic).toThrow(/No anthropic API key: .*ANTHROPIC_API_KEY/);
      expect(MissingApiKeyError.is(catchError(openai))).toBe(true);
    } finally {
      process.env = saved;
    }
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
