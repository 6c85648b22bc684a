/**
 * `awaitRunEnd` on a scripted source (each read answers the next scripted reply): the ids it
 * reads from, the entries it passes over, and the ends it settles on when the stream has none.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RUN_EVENT_FIELD } from '../events/redis-run-event-sink.js';
import type { RunEventSource, StreamEntries, StreamedRunEvent } from '../events/redis-run-event-stream.js';
import { awaitRunEnd } from './await-run-end.js';

interface Read {
  lastId: string;
  blockMs: number | undefined;
}

/** A source answering `replies` in order (a function reply throws); records every read. */
function scripted(replies: (StreamEntries | (() => never))[]): {
  source: RunEventSource;
  reads: Read[];
  closed: () => number;
} {
  const reads: Read[] = [];
  let closed = 0;
  const source: RunEventSource = {
    redis: { status: 'ready' } as Redis,
    settlesInBlockMs: true,
    read: async (_key, lastId, blockMs) => {
      reads.push({ lastId, blockMs });
      const reply = replies.shift();
      if (reply === undefined) throw new Error('no more scripted replies');
      if (typeof reply === 'function') reply();
      return reply as StreamEntries;
    },
    close: () => {
      closed++;
    },
  };
  return { source, reads, closed: () => closed };
}

const entry = (id: string, event: object): [string, string[]] => [
  id,
  [RUN_EVENT_FIELD, JSON.stringify({ runId: 'r', callPath: 'root', ...event })],
];
const runEnd = { type: 'run-end', status: 'succeeded', output: 'done' };

describe('awaitRunEnd', () => {
  it('passes over other events, mentions of run-end included, and settles on the run-end', async () => {
    const { source, reads, closed } = scripted([
      [entry('1-0', { type: 'run-start' }), entry('2-0', { type: 'log', message: '"run-end"' })],
      [entry('3-0', { type: 'generation-end' }), entry('4-0', runEnd)],
    ]);
    const end = await awaitRunEnd({
      source,
      key: 'k',
      timeoutMs: 1000,
      isOver: async () => false,
      compacted: async () => undefined,
    });
    expect(end).toMatchObject({ type: 'run-end', output: 'done', eventId: '4-0' });
    expect(reads.map((read) => read.lastId)).toEqual(['0', '2-0']);
    expect(closed()).toBe(1);
  });

  it('reads after `after`, asks isOver after an empty block, then reads without blocking', async () => {
    const { source, reads } = scripted([[], [entry('9-0', runEnd)]]);
    let asked = 0;
    const end = await awaitRunEnd({
      source,
      key: 'k',
      after: '5-0',
      timeoutMs: 1000,
      blockMs: 50,
      isOver: async () => ++asked > 0,
      compacted: async () => undefined,
    });
    expect(end?.eventId).toBe('9-0');
    expect(asked).toBe(1);
    expect(reads).toEqual([
      { lastId: '5-0', blockMs: 50 },
      { lastId: '5-0', blockMs: undefined },
    ]);
  });

  it("settles on the compacted timeline's run-end after the last id read when the stream is gone", async () => {
    const { source } = scripted([[entry('2-0', { type: 'run-start' })], [], []]);
    const compacted = [
      { type: 'run-start', eventId: '2-0' },
      { ...runEnd, eventId: '1-5' },
      { ...runEnd, eventId: '3-0' },
    ] as unknown as StreamedRunEvent[];
    const end = await awaitRunEnd({
      source,
      key: 'k',
      timeoutMs: 1000,
      isOver: async () => true,
      compacted: async () => compacted,
    });
    expect(end?.eventId).toBe('3-0');
  });

  it('gives undefined when the run is over and neither stream nor timeline holds a run-end', async () => {
    const { source, closed } = scripted([[], []]);
    const end = await awaitRunEnd({
      source,
      key: 'k',
      timeoutMs: 1000,
      isOver: async () => true,
      compacted: async () => undefined,
    });
    expect(end).toBeUndefined();
    expect(closed()).toBe(1);
  });

  it('reads again from the same id after a connection error, and throws any other error', async () => {
    const lost = () => {
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    };
    const { source, reads } = scripted([[entry('1-0', { type: 'run-start' })], lost, [entry('2-0', runEnd)]]);
    const wait = { key: 'k', timeoutMs: 1000, isOver: async () => false, compacted: async () => undefined };
    expect((await awaitRunEnd({ ...wait, source }))?.eventId).toBe('2-0');
    expect(reads.map((read) => read.lastId)).toEqual(['0', '1-0', '1-0']);
    const broken = scripted([
      () => {
        throw new TypeError('not a connection error');
      },
    ]);
    await expect(awaitRunEnd({ ...wait, source: broken.source })).rejects.toThrow(TypeError);
    expect(broken.closed()).toBe(1);
  });
});
