/**
 * A `result()` blocked on the client's shared event reader while Redis is paused (SIGSTOP: the
 * sockets stay open, nothing answers) ends with `RedisUnavailableError`: the shared read settles
 * on its own block timer and the record check after it is bounded, so the reader needs no
 * deadline timer of its own on that read (round 5, i15-client5). After Redis resumes, the same
 * handle's `result()` settles once a worker ran the run.
 */
import { createAgent } from '@flotilla/runtime';
import { createClient, type FlotillaClient, RedisUnavailableError } from '@flotilla/runtime/client';
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

describe('result() on the shared reader while Redis answers nothing', () => {
  it('rejects with RedisUnavailableError, and settles after Redis is back', async () => {
    // No worker yet: the run stays queued, its result() blocks on the shared read.
    const handle = await client.submit('echo', { text: 'hi' });
    const waiting = handle.result().then(
      () => 'settled',
      (error: unknown) => error,
    );
    // Freeze Redis only once the shared read is blocked in its XREAD (`CLIENT LIST` flag `b`).
    await untilAClientBlocks();
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

async function untilAClientBlocks(): Promise<void> {
  const observer = new Redis(server.url, { lazyConnect: true });
  try {
    await observer.connect();
    await waitUntil(
      async () => {
        const list = (await observer.client('LIST')) as string;
        return list.split('\n').some((line) => /\bflags=\w*b/.test(line) && /\bcmd=xread\b/.test(line))
          ? true
          : undefined;
      },
      { what: "the shared reader's XREAD to block", timeoutMs: 10_000 },
    );
  } finally {
    observer.disconnect();
  }
}
