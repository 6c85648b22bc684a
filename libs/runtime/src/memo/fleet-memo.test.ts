import { afterAll, describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { createFleetMemo, type FleetMemo } from './fleet-memo.js';
import { FleetMemoValueError } from './fleet-memo-value-error.js';

const redis = useRedis(import.meta.filename);
const memos: FleetMemo[] = [];
let testNumber = 0;

/** A memo on its own connection, as a separate worker process would have. */
function workerMemo(options: { lockTtlMs?: number; pollIntervalMs?: number } = {}): FleetMemo {
  const memo = createFleetMemo({ connection: redis.connect(), prefix: redis.prefix, ...options });
  memos.push(memo);
  return memo;
}

/** A memo key no other test uses. */
function freshKey(): string {
  testNumber += 1;
  return `tools-list-${testNumber}`;
}

afterAll(async () => {
  await Promise.all(memos.map((memo) => memo.close()));
});

describe('fleet memo', () => {
  it('computes once when 20 gets race on 4 connections', async () => {
    const workers = [workerMemo(), workerMemo(), workerMemo(), workerMemo()];
    const key = freshKey();
    let computations = 0;
    const compute = async () => {
      computations += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { tools: ['read_file', 'write_file'] };
    };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => workers[index % 4]!.get(key, ['fs'], compute)),
    );
    expect(computations).toBe(1);
    for (const result of results) expect(result).toEqual({ tools: ['read_file', 'write_file'] });
  });

  it('serves the stored value to a later get on another worker without computing', async () => {
    const key = freshKey();
    await workerMemo().get(key, [1], () => 'first');
    let computed = false;
    const value = await workerMemo().get(key, [1], () => {
      computed = true;
      return 'second';
    });
    expect(value).toBe('first');
    expect(computed).toBe(false);
  });

  it('computes again when the deps differ, comparing them structurally', async () => {
    const memo = workerMemo();
    const key = freshKey();
    await memo.get(key, [{ a: 1, b: 2 }], () => 'v1');
    expect(await memo.get(key, [{ b: 2, a: 1 }], () => 'not computed')).toBe('v1');
    expect(await memo.get(key, [{ a: 1, b: 3 }], () => 'v2')).toBe('v2');
  });

  describe('when forceRefresh is passed', () => {
    it('recomputes once and every worker then sees the new value', async () => {
      const [first, second, third] = [workerMemo(), workerMemo(), workerMemo()];
      const key = freshKey();
      await first.get(key, [], () => ['old']);
      expect(await first.epoch(key)).toBe(0);

      expect(await second.get(key, [], () => ['new'], { forceRefresh: true })).toEqual(['new']);
      expect(await third.epoch(key)).toBe(1);
      let computedAgain = false;
      const seen = await Promise.all(
        [first, third].map((memo) =>
          memo.get(key, [], () => {
            computedAgain = true;
            return ['newer'];
          }),
        ),
      );
      expect(seen).toEqual([['new'], ['new']]);
      expect(computedAgain).toBe(false);
    });
  });

  describe('when the computing worker dies while holding the lock', () => {
    it('lets another worker compute once the lock expires', async () => {
      const crashedConnection = redis.connect();
      const crashing = createFleetMemo({
        connection: crashedConnection,
        prefix: redis.prefix,
        lockTtlMs: 300,
      });
      const survivor = workerMemo({ lockTtlMs: 300, pollIntervalMs: 50 });
      const key = freshKey();
      let started: () => void = () => {};
      const computing = new Promise<void>((resolve) => {
        started = resolve;
      });
      // The crashing worker starts computing and never finishes.
      void crashing.get(key, [], () => {
        started();
        return new Promise<string>(() => {});
      });
      await computing;
      // Its connection drops, as when the process is killed: lock renewals stop.
      crashedConnection.disconnect();

      const value = await survivor.get(key, [], () => 'computed by the survivor');
      expect(value).toBe('computed by the survivor');
    });
  });

  describe('when the computation fails', () => {
    it('throws to the caller and lets a waiting worker compute instead', async () => {
      const [failing, waiting] = [workerMemo({ pollIntervalMs: 50 }), workerMemo({ pollIntervalMs: 50 })];
      const key = freshKey();
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started: () => void = () => {};
      const computing = new Promise<void>((resolve) => {
        started = resolve;
      });
      const failed = failing.get(key, [], async () => {
        started();
        await gate;
        throw new Error('server unreachable');
      });
      await computing;
      const waited = waiting.get(key, [], () => 'recovered');
      release();
      await expect(failed).rejects.toThrow('server unreachable');
      expect(await waited).toBe('recovered');
    });
  });

  describe('when values are not plain JSON', () => {
    it('rejects deps before computing', async () => {
      let computed = false;
      const attempt = workerMemo().get(freshKey(), [() => 1], () => {
        computed = true;
        return 1;
      });
      await expect(attempt).rejects.toSatisfy(FleetMemoValueError.is);
      expect(computed).toBe(false);
    });

    it('rejects a computed Date with the path and stores nothing', async () => {
      const memo = workerMemo();
      const key = freshKey();
      const attempt = memo.get(key, [], () => ({ fetchedAt: new Date() }));
      await expect(attempt).rejects.toThrow(/"\$\.fetchedAt".*class:Date/);
      expect(await memo.get(key, [], () => ({ fetchedAt: 'today' }))).toEqual({ fetchedAt: 'today' });
    });

    it('rejects a computed undefined, and deps with a Map, naming the path', async () => {
      const memo = workerMemo();
      await expect(memo.get(freshKey(), [], () => undefined)).rejects.toThrow(
        /value of ".*" .*"\$".*undefined/,
      );
      await expect(memo.get(freshKey(), [{ byId: new Map() }], () => 1)).rejects.toMatchObject({
        name: 'FleetMemoValueError',
        path: '$[0].byId',
        reason: 'class:Map',
      });
    });

    it('leaves out undefined properties, as JSON does: such deps share the entry of the deps without them', async () => {
      const memo = workerMemo();
      const key = freshKey();
      expect(await memo.get(key, [{ url: 'x', token: undefined }], () => ({ a: 1, b: undefined }))).toEqual({
        a: 1,
      });
      expect(await memo.get(key, [{ url: 'x' }], () => 'not computed')).toEqual({ a: 1 });
    });
  });
});
