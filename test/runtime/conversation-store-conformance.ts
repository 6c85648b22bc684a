/**
 * Behaviour every {@link ConversationStore} must show, run against each implementation
 * (in memory, Redis) by `conversation-store.test.ts`. Only the public contract is used here;
 * tests that read the Redis key layout live in `redis-conversation-store.redis.test.ts`.
 */
import { randomUUID } from 'node:crypto';
import type { Message } from '@flotilla/ir';
import { ConversationConflictError, ConversationVersionNotFoundError } from '@flotilla/runtime';
import type { ConversationStore } from '@flotilla/runtime/testing';
import { describe, expect, it } from 'vitest';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const system = (content: string): Message => ({ role: 'system', content });
const usage = (total: number) => ({ promptTokens: total - 1, completionTokens: 1, totalTokens: total });

export function describeConversationStore(name: string, createStore: () => ConversationStore): void {
  describe(`${name} conversation store`, () => {
    const newId = () => `conv-${randomUUID()}`;

    it('returns undefined for a conversation that was never stored', async () => {
      expect(await createStore().load(newId())).toBeUndefined();
    });

    it('appends turns and loads them back with header totals', async () => {
      const store = createStore();
      const id = newId();
      const first = await store.append(id, {
        expectedVersion: 0,
        appendId: 'a1',
        messages: [user('hi'), assistant('hello')],
        system: [system('be brief')],
        model: { provider: 'mock', id: 'm1' },
        usage: { ...usage(10), details: { cacheReadTokens: 2 } },
      });
      expect(first).toMatchObject({ version: 1, messageCount: 2, conversationId: id, schemaVersion: 1 });
      await store.append(id, {
        expectedVersion: 1,
        appendId: 'a2',
        messages: [user('again')],
        usage: { ...usage(5), details: { cacheReadTokens: 1 } },
      });
      const loaded = await store.load(id);
      expect(loaded?.messages).toEqual([user('hi'), assistant('hello'), user('again')]);
      expect(loaded?.header).toMatchObject({
        version: 2,
        messageCount: 3,
        system: [system('be brief')],
        model: { provider: 'mock', id: 'm1' },
        usage: { promptTokens: 13, completionTokens: 2, totalTokens: 15, details: { cacheReadTokens: 3 } },
      });
      expect(Date.parse(loaded?.header.createdAt ?? '')).not.toBeNaN();
    });

    it('rejects an append built on a stale version with ConversationConflictError', async () => {
      const store = createStore();
      const id = newId();
      await store.append(id, { expectedVersion: 0, appendId: 'a1', messages: [user('one')] });
      const stale = store.append(id, { expectedVersion: 0, appendId: 'a2', messages: [user('two')] });
      await expect(stale).rejects.toSatisfy(
        (error) =>
          ConversationConflictError.is(error) && error.actualVersion === 1 && error.expectedVersion === 0,
      );
      expect((await store.load(id))?.messages).toEqual([user('one')]);
    });

    it('treats a repeated appendId as a no-op even with a stale expectedVersion', async () => {
      const store = createStore();
      const id = newId();
      const change = { expectedVersion: 0, appendId: 'same', messages: [user('once')], usage: usage(3) };
      await store.append(id, change);
      const again = await store.append(id, change);
      expect(again).toMatchObject({ version: 1, messageCount: 1, usage: usage(3) });
      expect((await store.load(id))?.messages).toEqual([user('once')]);
    });

    it('lets exactly one of two concurrent writers win without losing the winner turn', async () => {
      const store = createStore();
      const id = newId();
      await store.append(id, { expectedVersion: 0, appendId: 'base', messages: [user('base')] });
      const results = await Promise.allSettled([
        store.append(id, { expectedVersion: 1, appendId: 'left', messages: [assistant('left')] }),
        store.append(id, { expectedVersion: 1, appendId: 'right', messages: [assistant('right')] }),
      ]);
      const won = results.filter((result) => result.status === 'fulfilled');
      const lost = results.filter((result) => result.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(ConversationConflictError.is((lost[0] as PromiseRejectedResult).reason)).toBe(true);
      const messages = (await store.load(id))?.messages ?? [];
      expect(messages).toHaveLength(2);
      // The loser rebuilds on the new version and appends: no turn is lost.
      const loser = messages[1]?.content === 'left' ? 'right' : 'left';
      await store.append(id, { expectedVersion: 2, appendId: loser, messages: [assistant(loser)] });
      expect((await store.load(id))?.messages.map((message) => message.content)).toEqual([
        'base',
        messages[1]?.content,
        loser,
      ]);
    });

    it('reads every version exactly as it was stored', async () => {
      const store = createStore();
      const id = newId();
      await store.append(id, {
        expectedVersion: 0,
        appendId: 'v1',
        messages: [user('q1')],
        system: [system('first prompt')],
        model: { provider: 'mock', id: 'a' },
        usage: usage(4),
      });
      await store.append(id, {
        expectedVersion: 1,
        appendId: 'v2',
        messages: [assistant('r1')],
        usage: usage(6),
      });
      await store.append(id, {
        expectedVersion: 2,
        appendId: 'v3',
        messages: [user('q2'), assistant('r2')],
        system: [system('second prompt')],
        model: { provider: 'other', id: 'b' },
      });
      const v1 = await store.load(id, { version: 1 });
      expect(v1?.messages).toEqual([user('q1')]);
      expect(v1?.header).toMatchObject({
        version: 1,
        messageCount: 1,
        system: [system('first prompt')],
        model: { provider: 'mock', id: 'a' },
        usage: usage(4),
      });
      const v2 = await store.load(id, { version: 2 });
      expect(v2?.messages).toEqual([user('q1'), assistant('r1')]);
      expect(v2?.header).toMatchObject({
        version: 2,
        system: [system('first prompt')],
        usage: { promptTokens: 8, completionTokens: 2, totalTokens: 10 },
      });
      const v3 = await store.load(id, { version: 3 });
      expect(v3?.header).toMatchObject({ version: 3, messageCount: 4, system: [system('second prompt')] });
      expect(v3?.header.model).toEqual({ provider: 'other', id: 'b' });
      const v0 = await store.load(id, { version: 0 });
      expect(v0).toMatchObject({ header: { version: 0, messageCount: 0, system: [] }, messages: [] });
    });

    it('fails with ConversationVersionNotFoundError for a version never reached', async () => {
      const store = createStore();
      const id = newId();
      await store.append(id, { expectedVersion: 0, appendId: 'a', messages: [user('x')] });
      await expect(store.load(id, { version: 5 })).rejects.toSatisfy(
        (error) => ConversationVersionNotFoundError.is(error) && error.latestVersion === 1,
      );
    });

    it('keeps messages with tool calls, tool results and attachments intact', async () => {
      const store = createStore();
      const id = newId();
      const messages: Message[] = [
        {
          role: 'user',
          content: 'look',
          attachments: [{ mediaType: 'image/png', data: 'aGVsbG8=', source: 'base64' }],
        },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }],
        },
        { role: 'tool', content: '2', tool_call_id: 'call-1', name: 'add' },
      ];
      await store.append(id, { expectedVersion: 0, appendId: 'a', messages });
      expect((await store.load(id))?.messages).toEqual(messages);
    });

    describe('when a base is written', () => {
      const provenance = {
        reason: 'compaction' as const,
        runId: 'run-1',
        turnsSummarised: 2,
        messagesSummarised: 2,
        summarizer: { provider: 'mock', id: 'summarizer' },
        tokensBefore: 2100,
        tokensAfter: 600,
      };
      const summary = user('summary of one and two');

      /** v1: one, v2: two, v3: base [summary, three], v4: + four. */
      async function compacted(store: ConversationStore, id: string) {
        await store.append(id, { expectedVersion: 0, appendId: 'a1', messages: [user('one')] });
        await store.append(id, { expectedVersion: 1, appendId: 'a2', messages: [assistant('two')] });
        await store.append(id, {
          expectedVersion: 2,
          appendId: 'a2', // an appendId already applied: a no-op
          messages: [assistant('never')],
        });
        const base = await store.append(id, {
          expectedVersion: 2,
          appendId: 'b3',
          messages: [summary, user('three')],
          base: provenance,
        });
        await store.append(id, { expectedVersion: 3, appendId: 'a4', messages: [assistant('four')] });
        return base;
      }

      it('reads the latest version as the base plus the turns appended after it', async () => {
        const store = createStore();
        const id = newId();
        const base = await compacted(store, id);
        expect(base).toMatchObject({ version: 3, messageCount: 2 });
        const latest = await store.load(id);
        expect(latest?.messages).toEqual([summary, user('three'), assistant('four')]);
        expect(latest?.header).toMatchObject({ version: 4, messageCount: 3 });
      });

      it('keeps every earlier version readable by number, exactly as it was', async () => {
        const store = createStore();
        const id = newId();
        await compacted(store, id);
        expect((await store.load(id, { version: 1 }))?.messages).toEqual([user('one')]);
        expect((await store.load(id, { version: 2 }))?.messages).toEqual([user('one'), assistant('two')]);
        expect((await store.load(id, { version: 2 }))?.header.base).toBeUndefined();
        expect((await store.load(id, { version: 3 }))?.messages).toEqual([summary, user('three')]);
      });

      it('shows on each later version where its base came from', async () => {
        const store = createStore();
        const id = newId();
        await compacted(store, id);
        const expected = { version: 3, compactedFrom: 2, ...provenance };
        expect((await store.load(id, { version: 3 }))?.header.base).toMatchObject(expected);
        expect((await store.load(id))?.header.base).toMatchObject(expected);
        expect(Date.parse((await store.load(id))?.header.base?.createdAt ?? '')).not.toBeNaN();
      });

      it('refuses a base built on a stale version, like an append', async () => {
        const store = createStore();
        const id = newId();
        await compacted(store, id);
        const stale = store.append(id, {
          expectedVersion: 2,
          appendId: 'b-late',
          messages: [summary],
          base: provenance,
        });
        await expect(stale).rejects.toSatisfy(ConversationConflictError.is);
      });
    });

    it('does not let callers mutate stored messages through returned objects', async () => {
      const store = createStore();
      const id = newId();
      const message = user('original');
      await store.append(id, { expectedVersion: 0, appendId: 'a', messages: [message] });
      message.content = 'changed after append';
      const loaded = await store.load(id);
      (loaded?.messages[0] as Message).content = 'changed after load';
      expect((await store.load(id))?.messages[0]?.content).toBe('original');
    });
  });
}
