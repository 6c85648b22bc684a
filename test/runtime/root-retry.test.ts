/**
 * A root run (submitted by the client) honours its agent's `retry` policy: the worker retries a
 * failed attempt after the backoff, and the retry replays the journal, so a model turn that
 * completed before the failure is not sent again.
 */
import { randomUUID } from 'node:crypto';
import { createAgent, promptChat } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createMockModel } from '@flotilla/runtime/testing';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';

const redis = useRedis(import.meta.filename);
const model = createMockModel({ id: 'retry-model' });
model.when(() => true).thenDo(() => 'drafted');
/** Handler executions by input key, in this process (the worker runs here). */
const executions = new Map<string, number>();

class FlakyBackendError extends Error {
  override readonly name = 'FlakyBackendError';
}

/** Drafts with one model turn, then fails on its first execution only. */
function flakyAgent(id: string, attempts: number) {
  return createAgent({
    id,
    model: model,
    retry: { attempts, backoff: { type: 'fixed', delayMs: 50 } },
    handler: async ({ key }: { key: string }) => {
      const draft = (await promptChat({ message: 'draft it' })).data;
      const execution = (executions.get(key) ?? 0) + 1;
      executions.set(key, execution);
      if (execution === 1) throw new FlakyBackendError('backend hiccup');
      return `${draft} on execution ${execution}`;
    },
  });
}

let worker: FlotillaWorker;
let client: FlotillaClient;

beforeAll(async () => {
  worker = createWorker({
    agents: [flakyAgent('flaky-twice', 2), flakyAgent('flaky-once', 1)],
    connection: redis.url,
    prefix: redis.prefix,
    logger: pino({ level: 'silent' }),
  });
  await worker.waitUntilReady();
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await worker?.close();
});

describe('a root run of an agent whose retry policy allows two attempts', () => {
  it('fails once, is retried by the worker and ends succeeded with attempts 2', async () => {
    const key = randomUUID();
    const callsBefore = model.calls.count;
    const run = await client.submit<string>('flaky-twice', { key });
    expect(await run.result()).toBe('drafted on execution 2');
    expect(await client.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    // The model turn of the failed attempt was journaled: the retry replayed it.
    expect(model.calls.count - callsBefore).toBe(1);
  });
});

describe('a root run of an agent without retries', () => {
  it('fails at its first failure, attempts 1', async () => {
    const run = await client.submit('flaky-once', { key: randomUUID() });
    await expect(run.result()).rejects.toMatchObject({ name: 'FlakyBackendError' });
    expect(await client.getRun(run.id)).toMatchObject({ status: 'failed', attempts: 1 });
  });
});
