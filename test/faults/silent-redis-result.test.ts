/**
 * A `result()` waiting for its run's end while Redis is paused (SIGSTOP: the sockets stay open,
 * nothing answers) ends with `RedisUnavailableError`: the wait settles on its own block timer and
 * the record check after it is bounded, so the reader needs no deadline timer of its own on that
 * wait (round 5, i15-client5; the end notices' reader since round 11). After Redis resumes, the same
 * handle's `result()` settles once a worker ran the run.
 */
import { createAgent } from '@flotilla/runtime';
import { createClient, type FlotillaClient, RedisUnavailableError } from '@flotilla/runtime/client';
import { runEndChannel, runKeys } from '@flotilla/runtime/internals';
import { createWorker } from '@flotilla/runtime/worker';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServerProcess, startRedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';

const PREFIX = 'silent-result';

let server: RedisServerProcess;
let client: FlotillaClient;

beforeAll(async () => {
  server = await startRedisServer();
  client = createClient({ connection: server.url, prefix: PREFIX, requestTimeoutMs: 500 });
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe('result() while Redis answers nothing', () => {
  it('rejects with RedisUnavailableError, and settles after Redis is back', async () => {
    // No worker yet: the run stays queued, its result() waits for its end.
    const handle = await client.submit('echo', { text: 'hi' });
    const waiting = handle.result().then(
      () => 'settled',
      (error: unknown) => error,
    );
    // Freeze Redis only once result() waits for the run's end (subscribed to its end channel).
    await untilResultWaits(handle.id);
    server.signal('SIGSTOP');
    let outcome: unknown;
    try {
      outcome = await waiting;
    } finally {
      server.signal('SIGCONT');
    }
    expect(RedisUnavailableError.is(outcome), String(outcome)).toBe(true);

    const worker = createWorker({
      connection: server.url,
      prefix: PREFIX,
      agents: [createAgent({ id: 'echo', handler: async ({ text }: { text: string }) => text })],
      logger: pino({ level: 'silent' }),
    });
    try {
      await worker.waitUntilReady();
      expect(await handle.result()).toBe('hi');
    } finally {
      await worker.close();
    }
  });
});

async function untilResultWaits(runId: string): Promise<void> {
  const observer = new Redis(server.url, { lazyConnect: true });
  const channel = runEndChannel(runKeys(PREFIX, runId).events);
  try {
    await observer.connect();
    await waitUntil(
      async () => {
        const [, count] = (await observer.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
        return Number(count) === 1 ? true : undefined;
      },
      { what: "result() to wait for the run's end", timeoutMs: 10_000 },
    );
  } finally {
    observer.disconnect();
  }
}
