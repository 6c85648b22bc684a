/**
 * Submitting runs and reading them back through the client: `result()` for success and
 * failure (the error's name and data survive), the event stream's order, idempotent submit,
 * cancel. A real worker on the test's Redis executes the runs.
 */
import { randomUUID } from 'node:crypto';
import { AbortError, RunNotFoundError } from '@flotilla/runtime';
import { createClient, type RunEvent, type StreamedRunEvent } from '@flotilla/runtime/client';
import { describe, expect, it } from 'vitest';
import { FleetQueues } from '../support/fleet-queues.js';
import { useRedis } from '../support/redis.js';
import { catalogBuilds, EchoAgent, PACED_TURNS, pacedTurns } from './fixtures/agents.js';
import { useWorker } from './fixtures/in-process-worker.js';

const redis = useRedis(import.meta.filename);
const fixture = useWorker(redis);

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const seen: RunEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('when a run succeeds', () => {
  it('resolves result() with the output and records status, usage and timestamps', async () => {
    const run = await fixture.client.submit(EchoAgent, { text: 'hi' });
    expect(await run.result()).toEqual({ echoed: { text: 'hi' } });
    const record = await fixture.client.getRun(run.id);
    expect(record).toMatchObject({
      status: 'succeeded',
      agentId: 'echo',
      output: { echoed: { text: 'hi' } },
      attempts: 1,
    });
    expect(record?.endedAt).toBeGreaterThanOrEqual(record?.startedAt ?? Number.POSITIVE_INFINITY);
    expect(record?.startedAt).toBeGreaterThanOrEqual(record?.createdAt ?? Number.POSITIVE_INFINITY);
  });

  it('streams run-start first and exactly one run-end last, with model turns in between', async () => {
    const run = await fixture.client.submit('chat', { message: 'hello' });
    const events = await collect(run.events());
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('run-start');
    expect(types.at(-1)).toBe('run-end');
    expect(types.filter((type) => type === 'run-end')).toHaveLength(1);
    expect(types.indexOf('model-turn-start')).toBeLessThan(types.indexOf('model-turn-end'));
    expect(events.at(-1)).toMatchObject({ status: 'succeeded', runId: run.id, modelCalls: 1 });
    expect(events.every((event) => event.runId === run.id)).toBe(true);
    // Reading again after the end replays the same stream from its start.
    expect((await collect(run.events())).map((event) => event.type)).toEqual(types);
  });
});

describe('when a run fails', () => {
  it('rejects result() with an error that keeps the original name and data', async () => {
    const run = await fixture.client.submit('failing', { limit: 3 });
    const error = await run.result().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'QuotaExceededError', message: 'quota of 3 exceeded', limit: 3 });
    expect(await fixture.client.getRun(run.id)).toMatchObject({
      status: 'failed',
      error: { name: 'QuotaExceededError' },
    });
    const events = await collect(run.events());
    expect(events.at(-1)).toMatchObject({
      type: 'run-end',
      status: 'failed',
      error: { name: 'QuotaExceededError' },
    });
  });
});

describe('submit', () => {
  it('makes one run when the same submission is submitted twice', async () => {
    const runId = `run-${randomUUID()}`;
    const first = await fixture.client.submit(EchoAgent, { n: 1 }, { runId });
    const second = await fixture.client.submit(EchoAgent, { n: 1 }, { runId });
    expect(second.id).toBe(first.id);
    expect(await second.result()).toEqual({ echoed: { n: 1 } });
    const starts = (await collect(first.events())).filter((event) => event.type === 'run-start');
    expect(starts).toHaveLength(1);
    const third = await fixture.client.submit(EchoAgent, { n: 1 }, { runId });
    expect(await third.result()).toEqual({ echoed: { n: 1 } });
    expect((await fixture.client.getRun(runId))?.attempts).toBe(1);
  });

  it('rejects input that has no JSON form before anything is queued', async () => {
    await expect(fixture.client.submit(EchoAgent, () => 1)).rejects.toThrow(TypeError);
  });

  it('tells an unknown run id apart from a pending one', async () => {
    const missing = `missing-${randomUUID()}`;
    await expect(fixture.client.run(missing).result()).rejects.toSatisfy(RunNotFoundError.is);
    await expect(fixture.client.cancel(missing)).rejects.toSatisfy(RunNotFoundError.is);
    expect(await fixture.client.getRun(missing)).toBeUndefined();
  });
});

/** An event as `RunHandle.events()` yields it, with its stream id (the client exports no name for it). */

describe('resuming the event stream', () => {
  it('reconnects after the last event seen while the run goes on: no event twice, one run-end', async () => {
    const run = await fixture.client.submit('paced', {});
    // Read until the first model turn waits for the test, then disconnect.
    const controller = new AbortController();
    const first: StreamedRunEvent[] = [];
    for await (const event of run.events({ signal: controller.signal })) {
      first.push(event);
      if (event.type === 'model-turn-start') controller.abort();
    }
    // The run goes on while no one listens: turn 1 ends, turn 2 starts.
    pacedTurns.release();
    const resumed: StreamedRunEvent[] = [];
    const reading = (async () => {
      for await (const event of run.events({ after: first.at(-1)?.eventId })) {
        resumed.push(event);
        // Each turn is let through only once the reader has seen it start.
        if (event.type === 'model-turn-start') pacedTurns.release();
      }
    })();
    await reading;
    expect(await run.result()).toBe(`done after ${PACED_TURNS - 1} ticks`);

    const seen = [...first, ...resumed];
    expect(new Set(seen.map((event) => event.eventId)).size).toBe(seen.length);
    expect(seen.filter((event) => event.type === 'model-turn-start')).toHaveLength(PACED_TURNS);
    expect(seen.filter((event) => event.type === 'run-end')).toHaveLength(1);
    expect(seen.at(-1)).toMatchObject({ type: 'run-end', status: 'succeeded' });
    expect(seen).toEqual(await collect(run.events()));
  });
});

describe('cancel', () => {
  it('aborts a running run on its worker: status cancelled, result() rejects with AbortError', async () => {
    const run = await fixture.client.submit('slow', {});
    for await (const event of run.events()) {
      if (event.type === 'model-turn-start') break;
    }
    await fixture.client.cancel(run.id);
    const error = await run.result().catch((caught: unknown) => caught);
    expect(AbortError.is(error)).toBe(true);
    expect(await fixture.client.getRun(run.id)).toMatchObject({ status: 'cancelled' });
    const events = await collect(run.events());
    expect(events.filter((event) => event.type === 'run-end')).toEqual([
      expect.objectContaining({ status: 'cancelled' }),
    ]);
  });

  it('removes a waiting run at once: status cancelled, no worker ever starts it', async () => {
    // No worker consumes this queue, so the run stays waiting.
    const queueName = `idle-${randomUUID()}`;
    const idle = createClient({ connection: redis.url, prefix: redis.prefix, queueName });
    const queue = new FleetQueues(redis.connect(), redis.prefix, queueName).queue(EchoAgent.id);
    try {
      const run = await idle.submit(EchoAgent, 'never');
      expect(await queue.getJobState(run.id)).toBe('waiting');
      await idle.cancel(run.id);
      expect(AbortError.is(await run.result().catch((caught: unknown) => caught))).toBe(true);
      expect(await idle.getRun(run.id)).toMatchObject({ status: 'cancelled', attempts: 0 });
      expect((await collect(run.events())).map((event) => event.type)).toEqual(['run-end']);
      // The job is gone from the queue, so no worker that comes later can start it.
      expect(await queue.getJob(run.id)).toBeUndefined();
      expect(
        await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'completed', 'failed'),
      ).toEqual({
        wait: 0,
        active: 0,
        delayed: 0,
        prioritized: 0,
        completed: 0,
        failed: 0,
      });
    } finally {
      await queue.close();
      await idle.close();
    }
  });

  it('leaves a finished run as it is', async () => {
    const run = await fixture.client.submit(EchoAgent, 'done');
    await run.result();
    await fixture.client.cancel(run.id);
    expect(await fixture.client.getRun(run.id)).toMatchObject({ status: 'succeeded' });
  });
});

describe('fleet memo on a worker', () => {
  it('computes a fleet-memo value once and shares it with later runs', async () => {
    const first = await fixture.client.submit('catalog', {});
    const second = await fixture.client.submit('catalog', {});
    expect(await first.result()).toEqual({ tools: ['search', 'fetch'] });
    expect(await second.result()).toEqual({ tools: ['search', 'fetch'] });
    expect(catalogBuilds.count).toBe(1);
  });
});
