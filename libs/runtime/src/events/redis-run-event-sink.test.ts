import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { runKeys } from '../keys.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { RedisRunEventSink } from './redis-run-event-sink.js';
import { readRunEventStream } from './redis-run-event-stream.js';
import type { RunEvent, RunEventOf } from './run-event.js';

const fixture = useRedis(import.meta.filename);
const toolCall = (runId: string, index: number): RunEventOf<'tool-call'> => ({
  type: 'tool-call',
  runId,
  at: index,
  callPath: 'root/agent:a:0',
  name: 'add',
  args: { index },
  toolCallId: `call-${index}`,
});

describe('RedisRunEventSink', () => {
  it('writes events in emit order once flushed', async () => {
    const runId = randomUUID();
    const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
    for (let index = 0; index < 25; index++) sink.emit(toolCall(runId, index));
    await sink.flush();
    const entries = await fixture.redis.xrange(runKeys(fixture.prefix, runId).events, '-', '+');
    expect(entries.map(([, fields]) => JSON.parse(fields[1] ?? '').args.index)).toEqual(
      Array.from({ length: 25 }, (_, index) => index),
    );
  });

  it('hands the events not written yet to the run end, which writes them ahead of run-end', async () => {
    const runId = randomUUID();
    const records = new RedisRunRecords({ redis: fixture.redis, prefix: fixture.prefix });
    await records.create({ runId, agentId: 'a' });
    await records.start({ runId, agentId: 'a' });
    const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
    sink.emit(toolCall(runId, 0));
    await sink.flush();
    sink.emit(toolCall(runId, 1));
    sink.emit(toolCall(runId, 2));
    const pending = (await sink.drain()).events;
    expect(pending.map((text) => JSON.parse(text).args.index)).toEqual([1, 2]);
    // Drained: nothing is left for the sink to write by itself.
    expect(await sink.drain()).toEqual({ records: [], events: [] });
    const ending = { status: 'succeeded' as const, output: 1, usage: emptyUsage(), modelCalls: 0 };
    expect(await records.finish(runId, 'root/agent:a:0', ending, undefined, undefined, pending)).toBe(true);
    const events = await records.compactedEvents(runId);
    expect(events?.map((event) => (event.type === 'tool-call' ? event.args : event.type))).toEqual([
      { index: 0 },
      { index: 1 },
      { index: 2 },
      'run-end',
    ]);
  });

  it('writes emitted events without an explicit flush', async () => {
    const runId = randomUUID();
    new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId }).emit(toolCall(runId, 1));
    const reader = readRunEventStream({
      connection: fixture.connect(),
      key: runKeys(fixture.prefix, runId).events,
      blockMs: 100,
    });
    const first = await reader.next();
    await reader.return(undefined);
    expect(first.value).toMatchObject({ type: 'tool-call', toolCallId: 'call-1' });
  });

  it('caps the stream near maxLength', async () => {
    const runId = randomUUID();
    const sink = new RedisRunEventSink({
      redis: fixture.redis,
      prefix: fixture.prefix,
      runId,
      maxLength: 10,
    });
    for (let index = 0; index < 500; index++) sink.emit(toolCall(runId, index));
    await sink.flush();
    expect(await fixture.redis.xlen(runKeys(fixture.prefix, runId).events)).toBeLessThan(500);
  });
});

describe('RedisRunEventSink with values it cannot write as they are', () => {
  it('writes an event nested past the limit, too large or not JSON with its payload left out, reporting once', async () => {
    const runId = randomUUID();
    let deep: unknown = 1;
    for (let level = 0; level < 10_000; level++) deep = [deep];
    const omitted: { type: string; reason: string }[] = [];
    const sink = new RedisRunEventSink({
      redis: fixture.redis,
      prefix: fixture.prefix,
      runId,
      limits: { maxDepth: 16, maxBytes: 1000 },
      onOmitted: (info) => omitted.push(info),
      onError: (error) => {
        throw error;
      },
    });
    sink.emit({ ...toolCall(runId, 0), args: deep });
    sink.emit({ ...toolCall(runId, 1), args: 'x'.repeat(100_000) });
    sink.emit({ ...toolCall(runId, 2), args: { big: 1n } });
    sink.emit(toolCall(runId, 3));
    await sink.flush();
    const entries = await fixture.redis.xrange(runKeys(fixture.prefix, runId).events, '-', '+');
    const events = entries.map(([, fields]) => JSON.parse(fields[1] ?? ''));
    expect(events.map((event) => event.toolCallId)).toEqual(['call-0', 'call-1', 'call-2', 'call-3']);
    expect(events[0].args.$omitted).toMatch(/^nested deeper than 24 levels/);
    expect(events[1].args.$omitted).toMatch(/^more than 17384 bytes/);
    expect(events[2].args.$omitted).toMatch(/bigint/);
    expect(events[3].args).toEqual({ index: 3 });
    expect(omitted).toEqual([{ type: 'tool-call', reason: expect.stringMatching(/^nested deeper/) }]);
  });
});

describe('readRunEventStream', () => {
  it('yields past and live events in order and ends after run-end', async () => {
    const runId = randomUUID();
    const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
    sink.emit(toolCall(runId, 0));
    await sink.flush();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of readRunEventStream({
        connection: fixture.connect(),
        key: runKeys(fixture.prefix, runId).events,
        blockMs: 50,
      })) {
        seen.push(event.type);
      }
    })();
    sink.emit(toolCall(runId, 1));
    sink.emit({
      type: 'run-end',
      runId,
      at: 2,
      callPath: 'root/agent:a:0',
      status: 'succeeded',
      output: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      modelCalls: 0,
    });
    sink.emit(toolCall(runId, 3));
    await sink.flush();
    await reading;
    expect(seen).toEqual(['tool-call', 'tool-call', 'run-end']);
  });

  it('ends when the run is over and no run-end will come', async () => {
    const events: RunEvent[] = [];
    for await (const event of readRunEventStream({
      connection: fixture.connect(),
      key: runKeys(fixture.prefix, randomUUID()).events,
      blockMs: 20,
      isOver: async () => true,
    })) {
      events.push(event);
    }
    expect(events).toEqual([]);
  });
});

describe('RedisRunEventSink after the run ended', () => {
  it('drops late events: the compacted timeline stays the whole story and no stream is created again', async () => {
    const runId = randomUUID();
    const records = new RedisRunRecords({ redis: fixture.redis, prefix: fixture.prefix });
    await records.create({ runId, agentId: 'a' });
    await records.finish(runId, 'root/agent:a:0', {
      status: 'cancelled',
      error: { name: 'AbortError', message: 'cancelled' },
      usage: emptyUsage(),
      modelCalls: 0,
    });
    const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
    sink.emit(toolCall(runId, 1));
    await sink.flush();
    // The stream (kept a few seconds after compaction) got no late event: it still ends at run-end.
    const stream = await fixture.redis.xrange(runKeys(fixture.prefix, runId).events, '-', '+');
    expect(stream.map(([, fields]) => JSON.parse(fields[1] ?? '{}').type)).toEqual(['run-end']);
    expect((await records.compactedEvents(runId))?.map((event) => event.type)).toEqual(['run-end']);
  });
});
