import { describe, expect, it } from 'vitest';
import { conversationKeys } from '../keys.js';
import { appendConversationArgs, readAppendConversationReply } from './append-conversation-args.js';
import { ConversationConflictError } from './store-errors.js';

const change = {
  expectedVersion: 3,
  appendId: 'turn-7',
  messages: [{ role: 'user' as const, content: 'hi' }],
  model: { provider: 'mock', id: 'm', extra: 'dropped' },
};

describe('appendConversationArgs', () => {
  it('lays out the five keys and the ARGV slots the script documents', () => {
    const call = appendConversationArgs(conversationKeys('p', 'c1'), 'c1', change, new Date(0), {
      seconds: 3600,
      blobs: ['ab12'],
    });
    expect(call.keys).toEqual([
      'p:conv:{c:c1}:header',
      'p:conv:{c:c1}:messages',
      'p:conv:{c:c1}:versions',
      'p:conv:{c:c1}:appends',
      'p:conv:{c:c1}:blobs',
    ]);
    expect(call.args).toEqual([
      'c1',
      '3',
      'turn-7',
      '1970-01-01T00:00:00.000Z',
      '',
      '{"provider":"mock","id":"m"}',
      '',
      '3600',
      '1',
      'ab12',
      '{"role":"user","content":"hi"}',
    ]);
  });
});

describe('readAppendConversationReply', () => {
  it('turns the conflict code into ConversationConflictError with both versions', () => {
    expect(() => readAppendConversationReply([-1, 5], 'c1', change)).toThrowError(
      expect.objectContaining({ name: 'ConversationConflictError', expectedVersion: 3, actualVersion: 5 }),
    );
    expect(ConversationConflictError.is(new ConversationConflictError('c', 1, 2))).toBe(true);
  });

  it('reads the header pairs of a successful append', () => {
    expect(readAppendConversationReply([1, ['version', '4', 'messageCount', '9']], 'c1', change)).toEqual({
      version: '4',
      messageCount: '9',
    });
  });
});
