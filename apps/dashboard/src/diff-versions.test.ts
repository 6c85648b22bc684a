import { describe, expect, it } from 'vitest';
import type { Conversation, Message } from './api-types.ts';
import { diffVersions } from './diff-versions.ts';

function at(version: number, messages: Message[], system = 'be brief'): Conversation {
  return {
    header: {
      conversationId: 'c',
      version,
      messageCount: messages.length,
      system: [{ role: 'system', content: system }],
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      createdAt: '',
      updatedAt: '',
    },
    messages,
  };
}

const hello: Message = { role: 'user', content: 'hello' };
const hi: Message = { role: 'assistant', content: 'hi' };
const again: Message = { role: 'user', content: 'again' };

describe('diffVersions', () => {
  it('gives the messages a later version appended', () => {
    expect(diffVersions(at(1, [hello, hi]), at(2, [hello, hi, again]))).toEqual({
      common: 2,
      removed: [],
      added: [again],
      systemChanged: false,
    });
  });

  it('gives the messages a rollback removed and a changed system prompt', () => {
    const change = diffVersions(
      at(2, [hello, hi, again]),
      at(3, [hello, { role: 'user', content: 'instead' }], 'be kind'),
    );
    expect(change.common).toBe(1);
    expect(change.removed).toEqual([hi, again]);
    expect(change.added).toEqual([{ role: 'user', content: 'instead' }]);
    expect(change.systemChanged).toBe(true);
  });
});
