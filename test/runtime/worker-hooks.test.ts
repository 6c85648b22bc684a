/**
 * `createWorker({ onRunStart, onRunEnd })`: a real worker on the test's Redis reports each run's
 * start and end through typed hooks, with the totals of its record.
 */
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import {
  createWorker,
  type FlotillaWorker,
  type WorkerRunEndInfo,
  type WorkerRunStartInfo,
} from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useRedis } from '../support/redis.js';
import { ChatAgent, chatModel, EchoAgent, FailingAgent } from './fixtures/agents.js';

const redis = useRedis(import.meta.filename);
const starts: WorkerRunStartInfo[] = [];
const ends: WorkerRunEndInfo[] = [];
let worker: FlotillaWorker;
let client: FlotillaClient;

beforeAll(async () => {
  worker = createWorker({
    agents: [EchoAgent, FailingAgent, ChatAgent],
    models: { 'chat-model': chatModel() },
    connection: redis.url,
    prefix: redis.prefix,
    logger: pino({ level: 'silent' }),
    onRunStart: (info) => starts.push(info),
    onRunEnd: (info) => {
      ends.push(info);
      if (info.agentId === 'echo') throw new Error('a broken hook must not matter');
    },
  });
  await worker.waitUntilReady();
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await worker?.close();
});

/** The end report of `runId`, once the worker made it (it comes right after the record ends). */
async function endOf(runId: string): Promise<WorkerRunEndInfo | undefined> {
  await vi.waitFor(() => expect(ends.some((end) => end.runId === runId)).toBe(true), { timeout: 10_000 });
  return ends.find((end) => end.runId === runId);
}

describe('worker lifecycle hooks', () => {
  it('reports a succeeded run once: start with its attempt, end with usage, model calls and duration', async () => {
    const run = await client.submit('chat', { message: 'hello' });
    await run.result();
    const end = await endOf(run.id);
    expect(starts.filter((start) => start.runId === run.id)).toEqual([
      { runId: run.id, agentId: 'chat', attempt: 1 },
    ]);
    const record = await client.getRun(run.id);
    expect(end).toEqual({
      runId: run.id,
      agentId: 'chat',
      status: 'succeeded',
      usage: record?.usage,
      modelCalls: 1,
      durationMs: (record?.endedAt ?? 0) - (record?.startedAt ?? 0),
      attempts: 1,
    });
    expect(ends.filter((one) => one.runId === run.id)).toHaveLength(1);
  });

  it('reports a failed run with its typed error', async () => {
    const run = await client.submit('failing', { limit: 2 });
    await run.result().catch(() => undefined);
    expect(await endOf(run.id)).toMatchObject({
      agentId: 'failing',
      status: 'failed',
      error: { name: 'QuotaExceededError', message: 'quota of 2 exceeded' },
    });
  });

  it('keeps serving when a hook throws', async () => {
    const first = await client.submit('echo', { n: 1 });
    expect(await first.result()).toEqual({ echoed: { n: 1 } });
    await endOf(first.id);
    const second = await client.submit('echo', { n: 2 });
    expect(await second.result()).toEqual({ echoed: { n: 2 } });
    expect(await endOf(second.id)).toMatchObject({ status: 'succeeded' });
  });
});
