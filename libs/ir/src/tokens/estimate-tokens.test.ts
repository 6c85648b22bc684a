import { describe, expect, it } from 'vitest';
import { ATTACHMENT_TOKENS, MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS } from './count-message-tokens.js';
import { estimateTokens } from './estimate-tokens.js';

describe('estimateTokens', () => {
  it('counts a token per 4 characters of text, plus the per-message and reply framing', () => {
    expect(estimateTokens([{ role: 'user', content: 'x'.repeat(400) }])).toBe(
      100 + MESSAGE_OVERHEAD_TOKENS + REPLY_PRIMING_TOKENS,
    );
  });

  it('gives an attachment a fixed weight whatever its size', () => {
    const small = { mediaType: 'image/png', data: 'aGk=' };
    const large = { mediaType: 'image/png', data: 'A'.repeat(2_000_000) };
    const withSmall = estimateTokens([{ role: 'user', content: '', attachments: [small] }]);
    const withLarge = estimateTokens([{ role: 'user', content: '', attachments: [large] }]);
    expect(withLarge).toBe(withSmall);
    expect(withSmall).toBe(ATTACHMENT_TOKENS + MESSAGE_OVERHEAD_TOKENS + REPLY_PRIMING_TOKENS);
  });

  it('counts tool calls and tool definitions', () => {
    const call = {
      id: 'c1',
      type: 'function' as const,
      function: { name: 'search', arguments: '{"q":"cats"}' },
    };
    const bare = estimateTokens([{ role: 'assistant', content: '' }]);
    expect(estimateTokens([{ role: 'assistant', content: '', tool_calls: [call] }])).toBeGreaterThan(bare);
    expect(estimateTokens([], [{ name: 'search', description: 'Searches the web' }])).toBeGreaterThan(
      estimateTokens([]),
    );
  });
});
