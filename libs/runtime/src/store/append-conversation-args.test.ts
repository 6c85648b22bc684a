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
  it('lays out the keys (six with blobs or a retention) and the ARGV slots the script documents', () => {
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
      'p:conv:{c:c1}:gate:lease',
      'p:conv:{c:c1}:blobs',
    ]);
    // Neither: the blobs set is not touched, not sent.
    expect(appendConversationArgs(keys, 'c1', change, new Date(0)).keys).toEqual(call.keys.slice(0, 5));
    expect(call.args).toEqual([
      '',
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

describe('appendConversationArgs leaves out what the script does not need', () => {
  it('sends the conversation id only for a new conversation, and a usage of zeros as none', () => {
    const keys = { ...conversationKeys('p', 'c1'), lease: conversationGateKeys('p', 'c1').lease };
    const zero = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const later = appendConversationArgs(keys, 'c1', { ...change, usage: zero }, new Date(0));
    expect([later.args[0], later.args[6]]).toEqual(['', '']);
    const first = appendConversationArgs(
      keys,
      'c1',
      { ...change, expectedVersion: 0, usage: zero },
      new Date(0),
    );
    expect(first.args[0]).toBe('c1');
    const counted = { ...zero, details: { cachedTokens: 0 } };
    const detailed = appendConversationArgs(keys, 'c1', { ...change, usage: counted }, new Date(0));
    expect(JSON.parse(detailed.args[6] ?? '')).toEqual(counted);
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

  it('reads the header values of a successful append, in the script’s order', () => {
    const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
    const reply = [
      1,
      [4, 9, 2, '[]', '{"provider":"mock","id":"m"}', JSON.stringify(usage), 'c', 'u', null, 12],
    ];
    expect(readAppendConversationReply(reply, 'c1', change)).toEqual({
      schemaVersion: 1,
      conversationId: 'c1',
      version: 4,
      messageCount: 7,
      system: [],
      model: { provider: 'mock', id: 'm' },
      usage,
      createdAt: 'c',
      updatedAt: 'u',
      lastPromptTokens: 12,
    });
  });

  it('gives every reply header objects of its own, however often the same values come back', () => {
    const reply = () => [
      1,
      [
        1,
        2,
        0,
        '[]',
        '{"provider":"mock","id":"m"}',
        '{"promptTokens":0,"completionTokens":0,"totalTokens":0}',
        'c',
        'u',
        null,
        null,
      ],
    ];
    // The model sent is the model stored: the reply reads it back.
    appendConversationArgs({ ...conversationKeys('p', 'c1'), lease: 'l' }, 'c1', change, new Date(0));
    const first = readAppendConversationReply(reply(), 'c1', change);
    expect(first).toMatchObject({
      system: [],
      model: { provider: 'mock', id: 'm' },
      usage: { totalTokens: 0 },
    });
    first.system.push({ role: 'system', content: 'changed by the caller' });
    (first.model as { id: string }).id = 'changed';
    first.usage.totalTokens = 9;
    const second = readAppendConversationReply(reply(), 'c1', change);
    expect(second).toMatchObject({
      system: [],
      model: { provider: 'mock', id: 'm' },
      usage: { totalTokens: 0 },
    });
  });

  it('reads a model JSON with fields of its own as it is stored', () => {
    const stored = '{"provider":"mock","id":"m","note":"kept"}';
    const reply = [1, [1, 1, 0, '[]', stored, '{}', 'c', 'u', null, null]];
    expect(readAppendConversationReply(reply, 'c1', change).model).toEqual(JSON.parse(stored));
    expect(readAppendConversationReply(reply, 'c1', change).model).toEqual(JSON.parse(stored));
  });

  it('sends the system prompt and the model as the JSON a load reads back', () => {
    const keys = { ...conversationKeys('p', 'c1'), lease: 'l' };
    const system = [{ role: 'system' as const, content: 'be brief' }];
    for (const [given, sent] of [
      [[], '[]'],
      [system, JSON.stringify(system)],
    ] as const) {
      const call = appendConversationArgs(keys, 'c1', { ...change, system: [...given] }, new Date(0));
      expect(call.args[4]).toBe(sent);
    }
    const other = { ...change, model: { provider: 'other', id: 'x' } };
    expect(appendConversationArgs(keys, 'c1', other, new Date(0)).args[5]).toBe(
      '{"provider":"other","id":"x"}',
    );
    expect(appendConversationArgs(keys, 'c1', change, new Date(0)).args[5]).toBe(
      '{"provider":"mock","id":"m"}',
    );
  });

  it('refuses a reply whose counts or JSON are not whole', () => {
    const values = [1, 1, 0, '[]', null, '{}', 'c', 'u', null, null];
    expect(() => readAppendConversationReply([1, values], 'c1', change)).not.toThrow();
    for (const [index, value] of [
      [0, 1.5],
      [1, -1],
      [3, '[not json'],
    ] as const) {
      const broken = values.with(index, value);
      expect(() => readAppendConversationReply([1, broken], 'c1', change)).toThrowError(
        expect.objectContaining({ name: 'ConversationCorruptedError' }),
      );
    }
  });
});
