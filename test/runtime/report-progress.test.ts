/**
 * `reportProgress` from a handler and from a tool, on a real worker: the latest value is on the
 * record and in the tree, each call is one `progress` event (a replay after a suspension does not
 * emit the calls it passes again), and an oversized value fails the run with a named error.
 */
import { createAgent, equipTool, promptAgent, reportProgress } from '@flotilla/runtime';
import { createClient, type FlotillaClient, type RunEvent } from '@flotilla/runtime/client';
import { createMockModel } from '@flotilla/runtime/testing';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useRedis } from '../support/redis.js';
import { EchoAgent } from './fixtures/agents.js';

const redis = useRedis(import.meta.filename);
let worker: FlotillaWorker;
let client: FlotillaClient;

/** A tool that reports progress, then a child run (the run suspends and replays), then progress again. */
const Cruncher = createAgent({
  id: 'cruncher',
  model: 'crunch-model',
  handler: async () => {
    await reportProgress({ stage: 'start' });
    equipTool({
      name: 'crunch',
      description: 'Crunches numbers',
      parameters: z.object({}),
      handler: async () => {
        await reportProgress({ stage: 'crunching', done: 1, of: 2 });
        return 'crunched';
      },
    });
    const answer = await promptAgent(z.object({ result: z.string() }));
    await EchoAgent({ answer });
    await reportProgress({ stage: 'end' });
    return answer;
  },
});

const Oversized = createAgent({
  id: 'oversized',
  handler: async () => {
    await reportProgress({ text: 'x'.repeat(20_000) });
    return 'never';
  },
});

beforeAll(async () => {
  const model = createMockModel({ id: 'crunch-model' });
  model.when({ toolName: 'crunch' }).thenReturn({ result: 'done' });
  model.when(() => true).thenCallTools([{ name: 'crunch', arguments: {} }]);
  worker = createWorker({
    agents: [Cruncher, EchoAgent, Oversized],
    models: { 'crunch-model': model },
    connection: redis.url,
    prefix: redis.prefix,
    logger: pino({ level: 'silent' }),
  });
  await worker.waitUntilReady();
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});
afterAll(async () => {
  await client.close();
  await worker.close();
});

describe('reportProgress', () => {
  it('emits one progress event per call and keeps the latest on the record and the tree', async () => {
    const run = await client.submit(Cruncher, {});
    expect(await run.result()).toEqual({ result: 'done' });
    const events: RunEvent[] = [];
    for await (const event of run.events()) events.push(event);
    expect(events.filter((event) => event.type === 'run-suspended')).toHaveLength(1);
    const progress = events.flatMap((event) => (event.type === 'progress' ? [event.value] : []));
    expect(progress).toEqual([{ stage: 'start' }, { stage: 'crunching', done: 1, of: 2 }, { stage: 'end' }]);
    expect((await client.getRun(run.id))?.progress).toEqual({ stage: 'end' });
    const tree = await client.getRunTree(run.id);
    expect(tree?.root.progress).toEqual({ stage: 'end' });
    expect(tree?.root.children.map((child) => child.agentId)).toEqual(['echo']);
  });

  it('fails the run with PayloadTooLargeError for a value over 16 KiB', async () => {
    const run = await client.submit(Oversized, {});
    await expect(run.result()).rejects.toMatchObject({ name: 'PayloadTooLargeError' });
    expect((await client.getRun(run.id))?.progress).toBeUndefined();
  });
});
