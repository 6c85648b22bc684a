import { describe, expect, it } from 'vitest';
import { conversationGateKeys, conversationKeys } from '../keys.js';
import { appendConversationArgs, readAppendConversationReply } from './append-conversation-args.js';
import { ConversationConflictError } from './store-errors.js';

const change = {
  expectedVersion: 3,
  appendId: 'turn-7',
  messages: [{ role: 'user' as const, content: 'hi' }],
  model: { provider: 'mock', id: 'm', extra: 'dropped' },
};

describe('appendConversationArgs', () => {
  it('lays out the six keys and the ARGV slots the script documents', () => {
    const keys = { ...conversationKeys('p', 'c1'), lease: conversationGateKeys('p', 'c1').lease };
    const holder = { runId: 'r1', attempt: 'a1' };
    const messages = [...change.messages, { role: 'assistant' as const, content: 'hello' }];
    const call = appendConversationArgs(keys, 'c1', { ...change, messages, holder }, new Date(0), {
      seconds: 3600,
      blobs: ['ab12'],
      chunkBytes: 4096,
    });
    expect(call.keys).toEqual([
      'p:conv:{c:c1}:header',
      'p:conv:{c:c1}:messages',
      'p:conv:{c:c1}:versions',
      'p:conv:{c:c1}:appends',
      'p:conv:{c:c1}:blobs',
      'p:conv:{c:c1}:gate:lease',
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
      'r1',
      'a1',
      '',
      '',
      '4096',
      'ab12',
      '{"role":"user","content":"hi"}',
      '{"role":"assistant","content":"hello"}',
    ]);
  });
});

describe('appendConversationArgs for a base', () => {
  it('passes the base provenance in ARGV[12], so the script writes a base instead of an append', () => {
    const keys = { ...conversationKeys('p', 'c1'), lease: conversationGateKeys('p', 'c1').lease };
    const base = {
      reason: 'compaction' as const,
      turnsSummarised: 4,
      messagesSummarised: 6,
      tokensBefore: 2100,
      tokensAfter: 700,
    };
    const call = appendConversationArgs(keys, 'c1', { ...change, base }, new Date(0));
    expect(JSON.parse(call.args[11] ?? '')).toEqual(base);
    expect(call.args.slice(13)).toEqual(['16384', '{"role":"user","content":"hi"}']);
  });
});

describe('readAppendConversationReply', () => {
  it('turns the conflict code into ConversationConflictError with both versions', () => {
    expect(() => readAppendConversationReply([-1, 5], 'c1', change)).toThrowError(
      expect.objectContaining({ name: 'ConversationConflictError', expectedVersion: 3, actualVersion: 5 }),
    );
    expect(ConversationConflictError.is(new ConversationConflictError('c', 1, 2))).toBe(true);
  });

  it('turns the lease code into ConversationLeaseLostError naming the holder', () => {
    expect(() => readAppendConversationReply([-2, 'r9'], 'c1', change)).toThrowError(
      expect.objectContaining({ name: 'ConversationLeaseLostError', holderRunId: 'r9' }),
    );
  });

  it('reads the header pairs of a successful append', () => {
    expect(readAppendConversationReply([1, ['version', '4', 'messageCount', '9']], 'c1', change)).toEqual({
      version: '4',
      messageCount: '9',
    });
  });
});
