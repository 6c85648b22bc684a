/**
 * What a fan-out's parent sends to its own run keys (Redis `MONITOR`, the script calls on the
 * parent's hash tag): its `run-suspended` event rides in the suspension's script
 * (`suspend-run-3`), and the outcomes its replay reads from the ended children's records are
 * journaled with the run's end (`finish-run-12`), not in calls of their own; readers still get
 * every event in order, and the journal every outcome. Resumed by the worker that suspended it,
 * its end compacts the stream in the finish script (no read-back, no `compact-events-2`).
 */
import { randomUUID } from 'node:crypto';
import { createAgent } from '@flotilla/runtime';
import { describe, expect, it } from 'vitest';
import { monitoredCommands } from '../support/monitored-commands.js';
import { useRedis } from '../support/redis.js';
import { useInProcessWorker } from '../support/use-in-process-worker.js';

const redis = useRedis(import.meta.filename);
const WIDTH = 4;
const Leaf = createAgent({ id: 'writes-leaf', handler: async ({ n }: { n: number }) => n * 2 });
const Parent = createAgent({
  id: 'writes-parent',
  handler: async () => {
    const values = await Promise.all(Array.from({ length: WIDTH }, (_, n) => Leaf({ n })));
    return values.reduce((sum, value) => sum + value, 0);
  },
});

const suite = useInProcessWorker(redis, { agents: [Parent, Leaf], concurrency: 2 * WIDTH });

/** The script calls on `runId`'s keys while `work` runs: each call's arguments. */
async function scriptCallsOn(runId: string, work: () => Promise<void>): Promise<string[][]> {
  const tag = `${redis.prefix}:run:{r:${runId}}:`;
  const calls = await monitoredCommands(
    redis.redis,
    ({ args }) => args[0]?.toLowerCase() === 'evalsha' && (args[3]?.startsWith(tag) ?? false),
    work,
  );
  return calls.map(({ args }) => args);
}

describe("a fan-out parent's writes to its run", () => {
  it('sends run-suspended with the suspension and journals the read outcomes with the end', async () => {
    const runId = randomUUID();
    let events: string[] = [];
    const calls = await scriptCallsOn(runId, async () => {
      const run = await suite.client.submit<number>('writes-parent', {}, { runId });
      expect(await run.result()).toBe(WIDTH * (WIDTH - 1));
      for await (const event of run.events()) events.push(event.type);
    });
    const carrying = (text: string) => calls.filter((args) => args.some((arg) => arg.includes(text)));
    // One call carries the event: the suspension's (the one with the steps it waits at).
    const suspended = carrying('"type":"run-suspended"');
    expect(suspended).toHaveLength(1);
    expect(suspended[0]?.some((arg) => arg.startsWith('["') && arg.includes('agent:writes-leaf:0'))).toBe(
      true,
    );
    // The children's outcomes: every entry in one call, the one that ends the run.
    const journaled = carrying('"kind":"child"');
    expect(journaled).toHaveLength(1);
    expect(journaled[0]).toContain('succeeded');
    const journal = await redis.redis.hgetall(`${redis.prefix}:run:{r:${runId}}:journal`);
    expect(Object.values(journal).filter((entry) => entry.includes('"kind":"child"'))).toHaveLength(WIDTH);
    events = events.filter(
      (type) => type !== 'run-start' && type !== 'generation-start' && type !== 'generation-end',
    );
    expect(events).toEqual([
      ...Array(WIDTH).fill('child-start'),
      'run-suspended',
      ...Array(WIDTH).fill('child-end'),
      'run-end',
    ]);
  });

  it('resumed by the worker that suspended it, compacts its stream in the finish, every event with its id', async () => {
    const runId = randomUUID();
    const keys = `${redis.prefix}:run:{r:${runId}}`;
    let run: Awaited<ReturnType<typeof suite.client.submit<number>>> | undefined;
    const calls = await scriptCallsOn(runId, async () => {
      run = await suite.client.submit<number>('writes-parent', {}, { runId });
      expect(await run.result()).toBe(WIDTH * (WIDTH - 1));
    });
    // compact-events-2 (the stream read back and compacted after the finish) takes these two keys.
    expect(calls.filter((args) => args[2] === '2' && args[4] === `${keys}:timeline`)).toEqual([]);
    // The stream (kept for a grace period) against the timeline the finish stored, read alone.
    const stream = await redis.redis.xrange(`${keys}:events`, '-', '+');
    expect(stream.length).toBeGreaterThan(2 * WIDTH);
    await redis.redis.del(`${keys}:events`);
    const read: [string, string][] = [];
    for await (const event of run?.events() ?? []) read.push([event.eventId, event.type]);
    expect(read).toEqual(stream.map(([id, fields]) => [id, JSON.parse(fields[1] ?? '{}').type]));
  });
});
