/**
 * Tests that read the Redis key layout of the conversation store directly: bytes written per
 * turn, blobs, hash tags and what a corrupted entry does. Behaviour through the public
 * contract is tested for every store in `test/runtime/conversation-store-conformance.ts`.
 */
import { randomUUID } from 'node:crypto';
import type { Message } from '@flotilla/ir';
import { describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { blobKey, conversationGateKeys, conversationKeys } from '../keys.js';
import { appendConversation6Script } from './__fixtures__/append-conversation-6.lua.js';
import { BlobStore } from './blob-store.js';
import type { AppendChange } from './conversation-store.js';
import { RedisConversationStore } from './redis-conversation-store.js';
import { ConversationCorruptedError } from './store-errors.js';

const fixture = useRedis(import.meta.filename);
const store = () =>
  new RedisConversationStore({ redis: fixture.redis, prefix: fixture.prefix, blobThresholdBytes: 1024 });
const user = (content: string): Message => ({ role: 'user', content });

/** Bytes in the message list (all its chunks). */
async function listBytes(id: string): Promise<number> {
  const chunks = await fixture.redis.lrange(conversationKeys(fixture.prefix, id).messages, 0, -1);
  return chunks.reduce((sum, chunk) => sum + chunk.length, 0);
}

/**
 * Sizes of everything one append wrote: its version entry, what it added to the message list,
 * and the header (but the size of the last chunk, which the chunk bound caps).
 */
async function writtenAt(id: string, version: number, listBefore: number): Promise<number[]> {
  const keys = conversationKeys(fixture.prefix, id);
  const entry = await fixture.redis.lindex(keys.versions, version - 1);
  const { tailBytes: _, ...header } = await fixture.redis.hgetall(keys.header);
  return [entry?.length ?? 0, (await listBytes(id)) - listBefore, Object.values(header).join('').length];
}

describe('RedisConversationStore layout', () => {
  it('keeps every key of a conversation under one hash tag', async () => {
    const id = `c-${randomUUID()}`;
    await store().append(id, { expectedVersion: 0, appendId: 'a', messages: [user('x')] });
    const keys = await fixture.redis.keys(`${fixture.prefix}:conv:*${id}*`);
    expect(keys.length).toBe(4); // header, messages, versions, appends (no blobs set: no media)
    for (const key of keys) expect(key).toContain(`{c:${id}}`);
  });

  it('writes the same amount per turn however long the conversation already is', async () => {
    const id = `c-${randomUUID()}`;
    const conversations = store();
    // Versions 10 and 99 have as many digits, so equal sizes mean nothing grew with length.
    const sizes: Record<number, number[]> = {};
    for (let version = 1; version <= 99; version++) {
      const listBefore = await listBytes(id);
      await conversations.append(id, {
        expectedVersion: version - 1,
        appendId: `turn-${version}`,
        messages: [user(`question ${version % 10}`)],
        system: [{ role: 'system', content: 'a fairly long system prompt '.repeat(20) }],
      });
      if (version === 10 || version === 99) sizes[version] = await writtenAt(id, version, listBefore);
    }
    expect(sizes[99]).toEqual(sizes[10]);
    // 99 short messages fit one chunk.
    expect(await fixture.redis.llen(conversationKeys(fixture.prefix, id).messages)).toBe(1);
    expect((await conversations.load(id))?.messages).toHaveLength(99);
  });

  it('answers an append with the header as stored (what a read after it returns)', async () => {
    const id = `c-${randomUUID()}`;
    const conversations = store();
    const system: Message[] = [{ role: 'system', content: 'first' }];
    const model = { provider: 'p', id: 'm' };
    const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
    const base = {
      reason: 'compaction' as const,
      turnsSummarised: 1,
      messagesSummarised: 2,
      tokensBefore: 9,
      tokensAfter: 3,
    };
    const changes: AppendChange[] = [
      { expectedVersion: 0, appendId: 'a', messages: [user('1')], system, model, usage, lastPromptTokens: 7 },
      {
        expectedVersion: 1,
        appendId: 'b',
        messages: [user('2')],
        system: [{ role: 'system', content: 'second' }],
      },
      { expectedVersion: 2, appendId: 'c', messages: [user('s')], base },
      { expectedVersion: 3, appendId: 'd', messages: [], usage, lastPromptTokens: 4 },
    ];
    for (const change of changes) {
      const header = await conversations.append(id, change);
      // A store that has not seen the conversation reads it whole from Redis.
      expect(header).toEqual((await store().load(id))?.header);
    }
    // Applied before: the stored header, unchanged.
    expect(await conversations.append(id, changes[0] as AppendChange)).toEqual(
      (await store().load(id))?.header,
    );
  });

  it('rejects (never throws) an append whose messages cannot be read', async () => {
    const broken = { role: 'user', content: 'x', attachments: [null] } as unknown as Message;
    const appending = store().append(`c-${randomUUID()}`, {
      expectedVersion: 0,
      appendId: 'a',
      messages: [broken],
    });
    await expect(appending).rejects.toThrow(TypeError);
  });

  it('stores the system prompt in a version entry only when it changes', async () => {
    const id = `c-${randomUUID()}`;
    const conversations = store();
    const system: Message[] = [{ role: 'system', content: 'stay' }];
    await conversations.append(id, { expectedVersion: 0, appendId: 'a', messages: [user('1')], system });
    await conversations.append(id, { expectedVersion: 1, appendId: 'b', messages: [user('2')], system });
    const entries = await fixture.redis.lrange(conversationKeys(fixture.prefix, id).versions, 0, -1);
    expect(entries.map((entry) => 'system' in JSON.parse(entry))).toEqual([true, false]);
  });

  it('moves large media to a content-addressed blob and restores it on load', async () => {
    const id = `c-${randomUUID()}`;
    const bytes = Buffer.alloc(4096, 7);
    const base64 = bytes.toString('base64');
    const messages: Message[] = [
      {
        role: 'user',
        content: 'raw',
        attachments: [{ mediaType: 'image/png', data: base64, source: 'base64' }],
      },
      {
        role: 'user',
        content: 'url',
        attachments: [{ mediaType: 'image/png', data: `data:image/png;base64,${base64}` }],
      },
      { role: 'user', content: 'small', attachments: [{ mediaType: 'image/png', data: 'aGk=' }] },
    ];
    await store().append(id, { expectedVersion: 0, appendId: 'a', messages });
    const sha256 = BlobStore.hash(bytes);
    expect(await fixture.redis.exists(blobKey(fixture.prefix, sha256))).toBe(1);
    const [stored] = await fixture.redis.lrange(conversationKeys(fixture.prefix, id).messages, 0, -1);
    expect(stored).not.toContain(base64);
    expect(stored?.split(sha256)).toHaveLength(3);
    expect(stored).toContain('aGk=');
    expect((await store().load(id))?.messages).toEqual(messages);
  });

  describe('when a stored entry is corrupted', () => {
    it('fails the load with ConversationCorruptedError naming the message index', async () => {
      const id = `c-${randomUUID()}`;
      await store().append(id, {
        expectedVersion: 0,
        appendId: 'a',
        messages: [user('ok'), user('bad soon')],
      });
      // The turn's two messages are one chunk: the second is made invalid.
      await fixture.redis.lset(
        conversationKeys(fixture.prefix, id).messages,
        0,
        '{"role":"user","content":"ok"},{"role":"wizard","content":"bad"}',
      );
      const error = await store()
        .load(id)
        .catch((caught: unknown) => caught);
      expect(ConversationCorruptedError.is(error)).toBe(true);
      expect(error).toMatchObject({ conversationId: id, index: 1 });
    });

    it('names the message whose media blob is gone', async () => {
      const id = `c-${randomUUID()}`;
      const data = Buffer.alloc(2048, 3).toString('base64');
      await store().append(id, {
        expectedVersion: 0,
        appendId: 'a',
        messages: [
          user('x'),
          { role: 'user', content: 'img', attachments: [{ mediaType: 'image/png', data }] },
        ],
      });
      await fixture.redis.del(blobKey(fixture.prefix, BlobStore.hash(Buffer.from(data, 'base64'))));
      await expect(store().load(id)).rejects.toMatchObject({ name: 'ConversationCorruptedError', index: 1 });
    });

    it('reports a header that does not parse', async () => {
      const id = `c-${randomUUID()}`;
      await store().append(id, { expectedVersion: 0, appendId: 'a', messages: [user('x')] });
      await fixture.redis.hset(conversationKeys(fixture.prefix, id).header, 'usage', 'not json');
      await expect(store().load(id)).rejects.toMatchObject({
        name: 'ConversationCorruptedError',
        index: undefined,
        message: expect.stringContaining('usage'),
      });
    });
  });

  describe('loading the latest version (header and list in one round trip)', () => {
    const provenance = {
      reason: 'compaction' as const,
      turnsSummarised: 2,
      messagesSummarised: 4,
      tokensBefore: 100,
      tokensAfter: 10,
    };
    /** v1 [a1, a2], v2 + [b1, b2], v3 = base [summary, b2], v4 + [c1]: list a1 a2 b1 b2 summary b2 c1. */
    async function compacted(conversations: RedisConversationStore, id: string): Promise<void> {
      await conversations.append(id, {
        expectedVersion: 0,
        appendId: '1',
        messages: [user('a1'), user('a2')],
      });
      await conversations.append(id, {
        expectedVersion: 1,
        appendId: '2',
        messages: [user('b1'), user('b2')],
      });
      await conversations.append(id, {
        expectedVersion: 2,
        appendId: '3',
        messages: [user('summary'), user('b2')],
        base: provenance,
      });
      await conversations.append(id, { expectedVersion: 3, appendId: '4', messages: [user('c1')] });
    }
    const contents = (loaded: { messages: Message[] } | undefined) => loaded?.messages.map((m) => m.content);

    it('reads a compacted conversation from its base, first load and later ones alike', async () => {
      const id = `c-${randomUUID()}`;
      const conversations = store();
      await compacted(conversations, id);
      // A store that has not seen it reads the whole list once; then from the start it saw.
      for (const reader of [store(), store(), conversations])
        for (let round = 0; round < 2; round++) {
          const loaded = await reader.load(id);
          expect(loaded?.header).toMatchObject({ version: 4, messageCount: 3, base: { version: 3 } });
          expect(contents(loaded)).toEqual(['summary', 'b2', 'c1']);
        }
      expect(contents(await conversations.load(id, { version: 2 }))).toEqual(['a1', 'a2', 'b1', 'b2']);
      expect(contents(await conversations.load(id, { version: 3 }))).toEqual(['summary', 'b2']);
      expect(contents(await conversations.load(id, { version: 4 }))).toEqual(['summary', 'b2', 'c1']);
    });

    it('names a corrupted message after a base by its index in the message log', async () => {
      const id = `c-${randomUUID()}`;
      await compacted(store(), id);
      // Chunks: [a1 a2 b1 b2] [summary b2 c1] (a base starts a chunk); c1 (message 6) made invalid.
      const keys = conversationKeys(fixture.prefix, id);
      expect(await fixture.redis.llen(keys.messages)).toBe(2);
      const chunk = (await fixture.redis.lindex(keys.messages, 1)) ?? '';
      await fixture.redis.lset(keys.messages, 1, chunk.replace('"content":"c1"', '"content":1'));
      for (const reader of [store(), store()]) {
        await expect(reader.load(id)).rejects.toMatchObject({ name: 'ConversationCorruptedError', index: 6 });
        await expect(reader.load(id, { version: 4 })).rejects.toMatchObject({ index: 6 });
      }
      // Version 3 ends before it, in the same chunk.
      expect(contents(await store().load(id, { version: 3 }))).toEqual(['summary', 'b2']);
      // A chunk that is no longer JSON is blamed on its first message.
      await fixture.redis.lset(keys.messages, 1, chunk.slice(0, -3));
      await expect(store().load(id)).rejects.toMatchObject({ name: 'ConversationCorruptedError', index: 4 });
    });

    it('reads a conversation written anew after it was compacted and deleted', async () => {
      const id = `c-${randomUUID()}`;
      const conversations = store();
      await compacted(conversations, id);
      expect(contents(await conversations.load(id))).toEqual(['summary', 'b2', 'c1']);
      const keys = conversationKeys(fixture.prefix, id);
      await fixture.redis.del(keys.header, keys.messages, keys.versions, keys.appends);
      expect(await conversations.load(id)).toBeUndefined();
      // The store remembers a start (chunk 1) beyond the new list: it reads again from the right one.
      await compacted(conversations, id);
      await fixture.redis.del(keys.header, keys.messages, keys.versions, keys.appends);
      await conversations.append(id, { expectedVersion: 0, appendId: 'x', messages: [user('new')] });
      expect(contents(await conversations.load(id))).toEqual(['new']);
    });

    it('never returns a header and messages of different versions while appends run', async () => {
      const id = `c-${randomUUID()}`;
      const writer = store();
      const reader = store();
      await writer.append(id, { expectedVersion: 0, appendId: '1', messages: [user('m1')] });
      let done = false;
      const appends = (async () => {
        for (let version = 1; version < 60; version++) {
          const change = {
            expectedVersion: version,
            appendId: `${version + 1}`,
            messages: [user(`m${version + 1}`)],
          };
          // Every tenth turn writes a base holding the last message, so the start moves too.
          await writer.append(id, version % 10 === 0 ? { ...change, base: provenance } : change);
        }
        done = true;
      })();
      let loads = 0;
      while (!done) {
        const loaded = await reader.load(id);
        const version = loaded?.header.version ?? 0;
        // Versions 11, 21, … are bases: a version reads from the latest base at or before it.
        const first = version <= 10 ? 1 : version - ((version - 1) % 10);
        expect(loaded?.messages.length).toBe(loaded?.header.messageCount);
        expect(contents(loaded)?.at(-1)).toBe(`m${version}`);
        expect(contents(loaded)).toEqual(
          Array.from({ length: version - first + 1 }, (_, index) => `m${first + index}`),
        );
        loads++;
      }
      await appends;
      expect(loads).toBeGreaterThan(0);
    });
  });

  describe('with a retention', () => {
    const image = (fill: number): Message => ({
      role: 'user',
      content: 'img',
      attachments: [{ mediaType: 'image/png', data: Buffer.alloc(2048, fill).toString('base64') }],
    });
    const blobOf = (fill: number) => blobKey(fixture.prefix, BlobStore.hash(Buffer.alloc(2048, fill)));
    const retained = (retentionSeconds: number, blobGraceSeconds?: number) =>
      new RedisConversationStore({
        redis: fixture.redis,
        prefix: fixture.prefix,
        blobThresholdBytes: 1024,
        retentionSeconds,
        ...(blobGraceSeconds !== undefined && { blobGraceSeconds }),
      });
    const conversationKeyList = (id: string) => Object.values(conversationKeys(fixture.prefix, id));

    it('refreshes every key of the conversation, and every blob it references, on each turn', async () => {
      const id = `c-${randomUUID()}`;
      const conversations = retained(1000);
      await conversations.append(id, { expectedVersion: 0, appendId: 'a', messages: [image(1)] });
      // Age every key, then take a turn without media: all of them are pushed back to 1000 s.
      for (const key of [...conversationKeyList(id), blobOf(1)]) await fixture.redis.expire(key, 5);
      await conversations.append(id, { expectedVersion: 1, appendId: 'b', messages: [user('more')] });
      for (const key of conversationKeyList(id)) {
        expect(await fixture.redis.ttl(key)).toBeGreaterThan(900);
        expect(await fixture.redis.ttl(key)).toBeLessThanOrEqual(1000);
      }
      // The blob outlives the conversation: its expiry is past every key's.
      expect(await fixture.redis.pttl(blobOf(1))).toBeGreaterThan(
        await fixture.redis.pttl(conversationKeyList(id)[0] ?? ''),
      );
    });

    it('never shortens a blob that a longer-lived conversation references', async () => {
      const [long, short] = [`c-${randomUUID()}`, `c-${randomUUID()}`];
      await retained(1000).append(long, { expectedVersion: 0, appendId: 'a', messages: [image(2)] });
      await retained(10).append(short, { expectedVersion: 0, appendId: 'a', messages: [image(2)] });
      expect(await fixture.redis.ttl(blobOf(2))).toBeGreaterThan(1000);
    });

    it('expires all the keys of a conversation together, then its blob', async () => {
      const id = `c-${randomUUID()}`;
      await retained(1, 1).append(id, { expectedVersion: 0, appendId: 'a', messages: [image(3), user('x')] });
      const [header, ...others] = conversationKeyList(id);
      expect(await fixture.redis.pttl(blobOf(3))).toBeGreaterThan(await fixture.redis.pttl(header ?? ''));
      await vi.waitFor(async () => expect(await fixture.redis.exists(header ?? '')).toBe(0), {
        timeout: 10_000,
      });
      expect(await fixture.redis.exists(...others)).toBe(0);
      await vi.waitFor(async () => expect(await fixture.redis.exists(blobOf(3))).toBe(0), {
        timeout: 10_000,
      });
    });

    it('keeps a conversation without retention forever, blobs included', async () => {
      const id = `c-${randomUUID()}`;
      await store().append(id, { expectedVersion: 0, appendId: 'a', messages: [image(4)] });
      for (const key of [...conversationKeyList(id), blobOf(4)])
        expect(await fixture.redis.ttl(key)).toBe(-1);
    });
  });
});

describe('RedisConversationStore chunks', () => {
  const chunked = (chunkBytes: number) =>
    new RedisConversationStore({ redis: fixture.redis, prefix: fixture.prefix, chunkBytes });
  const chunksOf = (id: string) => fixture.redis.lrange(conversationKeys(fixture.prefix, id).messages, 0, -1);
  const text = (message: Message) => JSON.stringify(message);
  const provenance = {
    reason: 'compaction' as const,
    turnsSummarised: 1,
    messagesSummarised: 2,
    tokensBefore: 100,
    tokensAfter: 10,
  };

  /** Every version loads as the messages it was given, whichever store reads it. */
  async function expectEveryVersion(id: string, versions: Message[][]): Promise<void> {
    for (const reader of [store(), chunked(64)]) {
      for (const [index, messages] of versions.entries())
        expect((await reader.load(id, { version: index + 1 }))?.messages).toEqual(messages);
      expect((await reader.load(id))?.messages).toEqual(versions.at(-1));
    }
  }

  it('joins a turn to the last chunk up to the bound exactly, then starts a new one', async () => {
    const id = `c-${randomUUID()}`;
    const [a, b, c] = [user('a'.repeat(20)), user('b'.repeat(20)), user('c')];
    // The bound is exactly the first chunk with a and b joined.
    const conversations = chunked(text(a).length + 1 + text(b).length);
    await conversations.append(id, { expectedVersion: 0, appendId: '1', messages: [a] });
    await conversations.append(id, { expectedVersion: 1, appendId: '2', messages: [b] });
    expect(await chunksOf(id)).toEqual([`${text(a)},${text(b)}`]);
    await conversations.append(id, { expectedVersion: 2, appendId: '3', messages: [c] });
    expect(await chunksOf(id)).toEqual([`${text(a)},${text(b)}`, text(c)]);
    await expectEveryVersion(id, [[a], [a, b], [a, b, c]]);
  });

  it('stores a turn larger than the bound as one chunk and starts the next turn after it', async () => {
    const id = `c-${randomUUID()}`;
    const conversations = chunked(64);
    const [small, large, next] = [user('s'), [user('x'.repeat(80)), user('y'.repeat(10))], user('n')];
    await conversations.append(id, { expectedVersion: 0, appendId: '1', messages: [small] });
    await conversations.append(id, { expectedVersion: 1, appendId: '2', messages: large });
    await conversations.append(id, { expectedVersion: 2, appendId: '3', messages: [next] });
    expect(await chunksOf(id)).toEqual([text(small), large.map(text).join(','), text(next)]);
    await expectEveryVersion(id, [[small], [small, ...large], [small, ...large, next]]);
  });

  it('reads every version across chunk boundaries, bases and turns without messages', async () => {
    const id = `c-${randomUUID()}`;
    const conversations = chunked(100);
    const versions: Message[][] = [];
    for (let version = 1; version <= 30; version++) {
      const change: AppendChange = {
        expectedVersion: version - 1,
        appendId: `${version}`,
        messages: version % 9 === 0 ? [] : [user(`m${version}`), user(`reply ${version}`)],
      };
      const isBase = version % 7 === 0;
      await conversations.append(id, isBase ? { ...change, base: provenance } : change);
      versions.push(isBase ? change.messages : [...(versions.at(-1) ?? []), ...change.messages]);
    }
    expect((await chunksOf(id)).length).toBeGreaterThan(5);
    await expectEveryVersion(id, versions);
  });

  it('writes one message per entry with a bound of 0 (as loaders before chunks read), then chunks again', async () => {
    const id = `c-${randomUUID()}`;
    const [a, b, c, d] = [user('a'), user('b'), user('c'), user('d')];
    await chunked(0).append(id, { expectedVersion: 0, appendId: '1', messages: [a, b] });
    await chunked(0).append(id, { expectedVersion: 1, appendId: '2', messages: [c] });
    expect(await chunksOf(id)).toEqual([a, b, c].map(text));
    await store().append(id, { expectedVersion: 2, appendId: '3', messages: [d] });
    expect(await chunksOf(id)).toEqual([...[a, b, c].map(text), text(d)]);
    await expectEveryVersion(id, [
      [a, b],
      [a, b, c],
      [a, b, c, d],
    ]);
  });

  describe('with a conversation written by append-conversation-6 (one message per entry)', () => {
    /** An append as the previous release made it (its script text is kept as a fixture). */
    async function appendOld(id: string, change: AppendChange): Promise<void> {
      const keys = conversationKeys(fixture.prefix, id);
      const { lease } = conversationGateKeys(fixture.prefix, id);
      const reply = await appendConversation6Script.run(
        fixture.redis,
        [keys.header, keys.messages, keys.versions, keys.appends, keys.blobs, lease],
        [
          id,
          String(change.expectedVersion),
          change.appendId,
          new Date().toISOString(),
          JSON.stringify([{ role: 'system', content: 'be brief' }]),
          '{"provider":"mock","id":"m"}',
          '',
          '0',
          '0',
          '',
          '',
          change.base === undefined ? '' : JSON.stringify(change.base),
          '',
          ...change.messages.map(text),
        ],
      );
      expect(reply).toEqual([1, expect.any(Array)]);
    }

    it('loads it, and appends to it in chunks after its entries (a mixed list)', async () => {
      const id = `c-${randomUUID()}`;
      await appendOld(id, { expectedVersion: 0, appendId: '1', messages: [user('o1'), user('o2')] });
      await appendOld(id, { expectedVersion: 1, appendId: '2', messages: [user('o3')] });
      const old = [
        [user('o1'), user('o2')],
        [user('o1'), user('o2'), user('o3')],
      ];
      await expectEveryVersion(id, old);
      const loaded = await store().load(id);
      expect(loaded?.header).toMatchObject({
        version: 2,
        messageCount: 3,
        system: [{ content: 'be brief' }],
      });

      const conversations = store();
      await conversations.append(id, {
        expectedVersion: 2,
        appendId: '3',
        messages: [user('n1'), user('n2')],
      });
      await conversations.append(id, { expectedVersion: 3, appendId: '4', messages: [user('n3')] });
      // The old entries stay as they were; the new turns share one chunk after them.
      expect(await chunksOf(id)).toEqual([
        text(user('o1')),
        text(user('o2')),
        text(user('o3')),
        [user('n1'), user('n2'), user('n3')].map(text).join(','),
      ]);
      const all = [...(old[1] ?? []), user('n1'), user('n2')];
      await expectEveryVersion(id, [...old, all, [...all, user('n3')]]);
      expect((await store().load(id))?.header).toMatchObject({ version: 4, messageCount: 6 });
    });

    it('loads its bases, and builds on them (or on a new base) after the upgrade', async () => {
      const id = `c-${randomUUID()}`;
      await appendOld(id, { expectedVersion: 0, appendId: '1', messages: [user('o1'), user('o2')] });
      await appendOld(id, {
        expectedVersion: 1,
        appendId: '2',
        messages: [user('summary')],
        base: provenance,
      });
      await appendOld(id, { expectedVersion: 2, appendId: '3', messages: [user('o3')] });
      const conversations = store();
      await conversations.append(id, { expectedVersion: 3, appendId: '4', messages: [user('n1')] });
      await conversations.append(id, {
        expectedVersion: 4,
        appendId: '5',
        messages: [user('s2')],
        base: provenance,
      });
      await conversations.append(id, { expectedVersion: 5, appendId: '6', messages: [user('n2')] });
      await expectEveryVersion(id, [
        [user('o1'), user('o2')],
        [user('summary')],
        [user('summary'), user('o3')],
        [user('summary'), user('o3'), user('n1')],
        [user('s2')],
        [user('s2'), user('n2')],
      ]);
      expect((await store().load(id))?.header).toMatchObject({ version: 6, base: { version: 5 } });
    });
  });
});
