/**
 * One writer per conversation, across real worker processes: runs on one conversation execute
 * one at a time in submission order, each appending its whole turn; waiting runs hold no
 * worker slot; `onConflict` (reject, interrupt, rollback) at submit; a lost wake-up or a dead
 * holder delays the next run, never strands it. The model counts its real calls in Redis, so
 * "no model call wasted" is checked across processes.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Message } from '@flotilla/ir';
import { createClient, type FlotillaClient, type RunHandle } from '@flotilla/runtime/client';
import { conversationGateKeys, runKeys } from '@flotilla/runtime/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../support/failure-of.js';
import { useRedis } from '../support/redis.js';
import { expectRunKeysToExpire } from '../support/run-key-expiry.js';
import { waitForKey } from '../support/wait-for-key.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { conversationFixtureKeys } from './fixtures/conversation-agents.js';

const redis = useRedis(import.meta.filename);
const workerProgram = fileURLToPath(new URL('./fixtures/conversation-worker.ts', import.meta.url));
let workers: WorkerProcesses;
/** One fleet per prefix: its clients and its fixture keys. */
interface Fleet {
  prefix: string;
  clients: FlotillaClient[];
  keys: ReturnType<typeof conversationFixtureKeys>;
}
const fleets: Fleet[] = [];

/** Starts `processes` workers on their own prefix, with `env`, and two clients. */
async function startFleet(name: string, processes: number, env: Record<string, string>): Promise<Fleet> {
  const prefix = `${redis.prefix}-${name}`;
  await Promise.all(
    Array.from({ length: processes }, () => workers.start({ FLOTILLA_PREFIX: prefix, ...env })),
  );
  const fleet: Fleet = {
    prefix,
    clients: [0, 1].map(() => createClient({ connection: redis.url, prefix })),
    keys: conversationFixtureKeys(prefix),
  };
  fleets.push(fleet);
  return fleet;
}

let main: Fleet;

beforeAll(async () => {
  workers = new WorkerProcesses(workerProgram, { REDIS_URL: redis.url });
  // A re-check far longer than the test: only wake-ups can move the line along here.
  main = await startFleet('main', 2, { CONCURRENCY: '4', FLOTILLA_CONVERSATION_RECHECK_MS: '600000' });
});

afterAll(async () => {
  for (const fleet of fleets) for (const client of fleet.clients) await client.close();
  await workers?.stop();
});

const modelCalls = async (fleet: Fleet) => Number(await redis.redis.get(fleet.keys.modelCalls));
const newConversation = () => `conv-${randomUUID()}`;

/** The stored conversation cut into turns: each starts at a user message. */
async function turnsOf(client: FlotillaClient, conversationId: string): Promise<Message[][]> {
  const stored = await client.getConversation(conversationId);
  const turns: Message[][] = [];
  for (const message of stored?.messages ?? []) {
    if (message.role === 'user') turns.push([message]);
    else turns.at(-1)?.push(message);
  }
  return turns;
}

/** Holds `conversationId` with a run whose `hold` tool waits for the release key. */
async function hold(fleet: Fleet, conversationId: string): Promise<RunHandle> {
  await redis.redis.del(fleet.keys.release, fleet.keys.holdProcess);
  const holder = await fleet.clients[0]!.submit('turn-chat', { message: 'hold:h' }, { conversationId });
  await waitForKey(redis.redis, fleet.keys.holdProcess);
  return holder;
}

describe('when 2 clients submit 50 runs each on one conversation at once', () => {
  for (const withTools of [false, true]) {
    it(`runs them one at a time in submission order, 100 whole turns, no model call wasted (${withTools ? 'with' : 'without'} tool calls)`, async () => {
      const conversationId = newConversation();
      const before = await modelCalls(main);
      const started = performance.now();
      const text = (client: number, index: number) => `${withTools ? 'tool:' : ''}${'AB'[client]}${index}`;
      // Each client submits its 50 one after the other; the two clients at the same time.
      const handles = await Promise.all(
        main.clients.map(async (client, clientIndex) => {
          const runs: RunHandle[] = [];
          for (let index = 0; index < 50; index++)
            runs.push(
              await client.submit('turn-chat', { message: text(clientIndex, index) }, { conversationId }),
            );
          return runs;
        }),
      );
      const submittedMs = performance.now() - started;
      const results = await Promise.all(handles.flat().map((run) => run.result()));
      const elapsedMs = performance.now() - started;
      const calls = (await modelCalls(main)) - before;

      const turns = await turnsOf(main.clients[0]!, conversationId);
      expect(turns).toHaveLength(100);
      turns.forEach((turn, index) => {
        const user = String(turn[0]?.content);
        const reply = `reply to "${user}" (user messages seen: ${index + 1})`;
        // Whole: every turn saw every turn before it, and ends with its answer.
        if (withTools) {
          expect(turn.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
          expect(turn[2]).toMatchObject({ content: 'noted', tool_call_id: `call-${index + 1}` });
        } else expect(turn.map((message) => message.role)).toEqual(['user', 'assistant']);
        expect(turn.at(-1)?.content).toBe(reply);
      });
      // Submission order: each client's runs ran in the order it submitted them.
      for (const client of [0, 1]) {
        const order = turns
          .map((turn) => String(turn[0]?.content))
          .filter((user) => user.includes('AB'[client]!));
        expect(order).toEqual(Array.from({ length: 50 }, (_, index) => text(client, index)));
      }
      expect(results.every((result) => typeof result === 'string')).toBe(true);
      expect(calls).toBe(withTools ? 200 : 100);
      const stored = await main.clients[0]!.getConversation(conversationId);
      expect(stored?.header.version).toBe(100);
      console.log(
        JSON.stringify({
          figure: 'conversation-writers-2x50',
          toolCalls: withTools,
          runs: 100,
          turns: turns.length,
          modelCalls: calls,
          submitMs: Math.round(submittedMs),
          allDoneMs: Math.round(elapsedMs),
        }),
      );
    });
  }
});

describe('when a run on a conversation fails and is retried', () => {
  it('keeps its place: the retry stores the whole turn once, without repeating a model call, then the next runs', async () => {
    const conversationId = newConversation();
    await redis.redis.set(main.keys.flaky, '1');
    const before = await modelCalls(main);
    const flaky = await main.clients[0]!.submit('retry-chat', { message: 'flaky:f' }, { conversationId });
    const next = await main.clients[1]!.submit('turn-chat', { message: 'next' }, { conversationId });

    expect(await flaky.result()).toBe('reply to "flaky:f" (user messages seen: 1)');
    expect(await next.result()).toBe('reply to "next" (user messages seen: 2)');
    expect(await main.clients[0]!.getRun(flaky.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    const turns = await turnsOf(main.clients[0]!, conversationId);
    expect(turns.map((turn) => turn.map((message) => message.role))).toEqual([
      ['user', 'assistant', 'tool', 'assistant'],
      ['user', 'assistant'],
    ]);
    // The tool-calling turn answered before the failure was replayed, not asked again.
    expect((await modelCalls(main)) - before).toBe(3);
  });

  it('stores the unfinished turn closed when no attempt is left', async () => {
    const conversationId = newConversation();
    await redis.redis.set(main.keys.flaky, '1');
    const failed = await main.clients[0]!.submit('turn-chat', { message: 'flaky:g' }, { conversationId });
    expect(await failureOf(failed)).toMatchObject({ message: expect.stringContaining('failed once') });
    const turns = await turnsOf(main.clients[0]!, conversationId);
    expect(turns.map((turn) => turn.map((message) => message.role))).toEqual([['user', 'assistant', 'tool']]);
    const after = await main.clients[1]!.submit('turn-chat', { message: 'again' }, { conversationId });
    expect(await after.result()).toBe('reply to "again" (user messages seen: 2)');
  });
});

describe('onConflict', () => {
  it("'reject' ends the run failed with ConversationBusyError at submit, before any model call", async () => {
    const conversationId = newConversation();
    const holder = await hold(main, conversationId);
    const before = await modelCalls(main);
    const rejected = await main.clients[1]!.submit(
      'turn-chat',
      { message: 'me too' },
      { conversationId, onConflict: 'reject' },
    );
    expect(await failureOf(rejected)).toMatchObject({ name: 'ConversationBusyError' });
    expect(await main.clients[1]!.getRun(rejected.id)).toMatchObject({ status: 'failed', modelCalls: 0 });
    expect(await modelCalls(main)).toBe(before);
    await expectRunKeysToExpire(redis.redis, main.prefix, [rejected.id]);

    await redis.redis.set(main.keys.release, '1');
    await holder.result();
    const turns = await turnsOf(main.clients[0]!, conversationId);
    expect(turns.map((turn) => turn[0]?.content)).toEqual(['hold:h']);
    // Free again: a reject run now goes through.
    const alone = await main.clients[1]!.submit(
      'turn-chat',
      { message: 'now' },
      { conversationId, onConflict: 'reject' },
    );
    expect(await alone.result()).toBe('reply to "now" (user messages seen: 2)');
  });

  it("'interrupt' cancels the holder and the runs waiting, keeps the holder's turn closed, then runs", async () => {
    const conversationId = newConversation();
    const holder = await hold(main, conversationId);
    const waiting = await main.clients[0]!.submit('turn-chat', { message: 'queued' }, { conversationId });
    const interrupting = await main.clients[1]!.submit(
      'turn-chat',
      { message: 'stop, do this instead' },
      { conversationId, onConflict: 'interrupt' },
    );
    expect(await interrupting.result()).toBe('reply to "stop, do this instead" (user messages seen: 2)');
    expect(await main.clients[0]!.getRun(holder.id)).toMatchObject({ status: 'cancelled' });
    expect(await main.clients[0]!.getRun(waiting.id)).toMatchObject({ status: 'cancelled', modelCalls: 0 });
    // The waiting run was ended by the interrupt itself (no attempt of its own ever ran).
    await expectRunKeysToExpire(redis.redis, main.prefix, [holder.id, waiting.id]);

    const turns = await turnsOf(main.clients[0]!, conversationId);
    expect(turns.map((turn) => turn[0]?.content)).toEqual(['hold:h', 'stop, do this instead']);
    // The holder's unfinished turn, closed: its tool call has a result and no answer follows.
    const [closed] = turns;
    expect(closed?.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(closed?.[2]).toMatchObject({ tool_call_id: 'call-1' });
  });

  it("'rollback' cancels the holder and discards its unfinished turn entirely", async () => {
    const conversationId = newConversation();
    await (await main.clients[0]!.submit('turn-chat', { message: 'first' }, { conversationId })).result();
    const holder = await hold(main, conversationId);
    const rolling = await main.clients[1]!.submit(
      'turn-chat',
      { message: 'never mind that' },
      { conversationId, onConflict: 'rollback' },
    );
    expect(await rolling.result()).toBe('reply to "never mind that" (user messages seen: 2)');
    expect(await main.clients[0]!.getRun(holder.id)).toMatchObject({ status: 'cancelled' });
    const turns = await turnsOf(main.clients[0]!, conversationId);
    expect(turns.map((turn) => turn[0]?.content)).toEqual(['first', 'never mind that']);
  });
});

describe('while a run waits for its conversation', () => {
  it('holds no worker slot: a concurrency-2 worker serves other conversations; a cancelled waiter never runs', async () => {
    const fleet = await startFleet('slots', 1, {
      CONCURRENCY: '2',
      FLOTILLA_CONVERSATION_RECHECK_MS: '600000',
    });
    const [client] = fleet.clients as [FlotillaClient];
    const busy = newConversation();
    const holder = await hold(fleet, busy);
    const waiters: RunHandle[] = [];
    for (let index = 0; index < 5; index++)
      waiters.push(await client.submit('turn-chat', { message: `w${index}` }, { conversationId: busy }));
    const [first] = waiters as [RunHandle];
    const record = await waitUntil(
      async () => {
        const candidate = await client.getRun(first.id);
        return candidate?.waitingFor ? candidate : undefined;
      },
      { what: `the waitingFor of run ${first.id}` },
    );
    expect(record).toMatchObject({
      status: 'queued',
      waitingFor: { kind: 'conversation', detail: `${busy} (after run ${holder.id})` },
    });

    // One slot holds the holder; 5 runs wait; the other slot still serves other conversations.
    const others = await Promise.all(
      [1, 2, 3].map(async (index) =>
        (
          await client.submit(
            'turn-chat',
            { message: `other ${index}` },
            { conversationId: newConversation() },
          )
        ).result(),
      ),
    );
    expect(others).toEqual([1, 2, 3].map((index) => `reply to "other ${index}" (user messages seen: 1)`));
    expect(await client.getRun(holder.id)).toMatchObject({ status: 'running' });

    await client.cancel(first.id);
    expect(await client.getRun(first.id)).toMatchObject({ status: 'cancelled', modelCalls: 0 });
    await expectRunKeysToExpire(redis.redis, fleet.prefix, [first.id]);
    await redis.redis.set(fleet.keys.release, '1');
    await Promise.all([holder, ...waiters.slice(1)].map((run) => run.result()));
    const turns = await turnsOf(client, busy);
    expect(turns.map((turn) => turn[0]?.content)).toEqual(['hold:h', 'w1', 'w2', 'w3', 'w4']);
    expect((await client.getRun(waiters[4]!.id))?.waitingFor).toBeUndefined();
  });
});

describe('when the wake-up is lost or the holder dies', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet('recheck', 2, { CONCURRENCY: '2', FLOTILLA_CONVERSATION_RECHECK_MS: '300' });
  });

  it('a parked run finds by itself that the run ahead ended, and runs', async () => {
    const [client] = fleet.clients as [FlotillaClient];
    const conversationId = newConversation();
    // A holder that ended without leaving the line (a crash between its end and its wake-up):
    // first in line, with a record that goes from running to succeeded behind the gate's back.
    const ghost = `ghost-${randomUUID()}`;
    const record = runKeys(fleet.prefix, ghost).record;
    await redis.redis.hset(record, {
      runId: ghost,
      agentId: 'turn-chat',
      status: 'running',
      createdAt: Date.now(),
    });
    await redis.redis.zadd(conversationGateKeys(fleet.prefix, conversationId).writers, 0, ghost);
    const waiter = await client.submit('turn-chat', { message: 'after the ghost' }, { conversationId });
    await waitUntil(async () => (await client.getRun(waiter.id))?.waitingFor, { what: 'the waiter to park' });
    await redis.redis.hset(record, 'status', 'succeeded');

    expect(await waiter.result()).toBe('reply to "after the ghost" (user messages seen: 1)');
  });

  it('a holder whose worker was killed is taken over, its turn stored once, then the next runs', async () => {
    const [client] = fleet.clients as [FlotillaClient];
    const conversationId = newConversation();
    const before = await modelCalls(fleet);
    const holder = await hold(fleet, conversationId);
    const next = await client.submit('turn-chat', { message: 'next' }, { conversationId });
    const killed = Number(await redis.redis.get(fleet.keys.holdProcess));
    await redis.redis.del(fleet.keys.holdProcess);
    await workers.kill(killed);
    // The other worker takes the stalled holder over and runs its hold tool again.
    await waitForKey(redis.redis, fleet.keys.holdProcess);
    await redis.redis.set(fleet.keys.release, '1');

    expect(await holder.result()).toBe('reply to "hold:h" (user messages seen: 1)');
    expect(await next.result()).toBe('reply to "next" (user messages seen: 2)');
    const turns = await turnsOf(client, conversationId);
    expect(turns.map((turn) => turn.map((message) => message.role))).toEqual([
      ['user', 'assistant', 'tool', 'assistant'],
      ['user', 'assistant'],
    ]);
    // The holder's first model turn was replayed from its journal, not asked again.
    expect((await modelCalls(fleet)) - before).toBe(3);
  });
});

describe('when the worker dies just after it stored a turn, before the turn is journaled', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet('append-crash', 2, {
      CONCURRENCY: '2',
      FLOTILLA_CONVERSATION_RECHECK_MS: '300',
    });
  });

  it('the replay stores the turn once, as the run answered, without asking the model again', async () => {
    const [client] = fleet.clients as [FlotillaClient];
    const conversationId = newConversation();
    await (await client.submit('turn-chat', { message: 'first' }, { conversationId })).result();
    const before = await modelCalls(fleet);
    await redis.redis.set(fleet.keys.crashAfterAppend, '1');
    const crashed = await client.submit('turn-chat', { message: 'tool:crash' }, { conversationId });
    const next = await client.submit('turn-chat', { message: 'next' }, { conversationId });

    expect(await crashed.result()).toBe('reply to "tool:crash" (user messages seen: 2)');
    expect(await next.result()).toBe('reply to "next" (user messages seen: 3)');
    // It did die there, and another worker took the run over.
    expect(await redis.redis.get(fleet.keys.crashedProcess)).not.toBeNull();
    expect((await client.getRun(crashed.id))?.attempts).toBe(2);
    const turns = await turnsOf(client, conversationId);
    expect(turns.map((turn) => turn.map((message) => message.role))).toEqual([
      ['user', 'assistant'],
      ['user', 'assistant', 'tool', 'assistant'],
      ['user', 'assistant'],
    ]);
    expect(turns[1]?.at(-1)?.content).toBe('reply to "tool:crash" (user messages seen: 2)');
    // Its two model turns were journaled before the append: the replay asked the model nothing.
    expect((await modelCalls(fleet)) - before).toBe(3);
  });
});
