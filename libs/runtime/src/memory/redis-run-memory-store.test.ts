import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { RedisRunMemoryStore } from './redis-run-memory-store.js';

const fixture = useRedis(import.meta.filename);
const storeOf = (runId: string) =>
  new RedisRunMemoryStore({ redis: fixture.redis, prefix: fixture.prefix, runId });

describe('RedisRunMemoryStore', () => {
  it('keeps each invocation memory apart, as JSON', async () => {
    const memory = storeOf(randomUUID());
    await memory.set('root/agent:a:0', 'count', 2);
    await memory.set('root/agent:a:0', 'notes', { seen: ['x'] });
    await memory.set('root/agent:a:0/agent:b:0', 'count', 9);
    expect(await memory.load('root/agent:a:0')).toEqual({ count: 2, notes: { seen: ['x'] } });
    expect(await memory.load('root/agent:a:0/agent:b:0')).toEqual({ count: 9 });
    expect(await memory.load('root/agent:c:0')).toEqual({});
  });

  it('removes a key set to undefined and clears one invocation', async () => {
    const memory = storeOf(randomUUID());
    await memory.set('a', 'x', 1);
    await memory.set('a', 'y', 2);
    await memory.set('a', 'x', undefined);
    expect(await memory.load('a')).toEqual({ y: 2 });
    await memory.clear('a');
    expect(await memory.load('a')).toEqual({});
  });

  it('deletes the memory of every invocation when the run ends', async () => {
    const runId = randomUUID();
    const memory = storeOf(runId);
    await memory.set('a', 'x', 1);
    await memory.set('a/b', 'y', 2);
    await memory.deleteAll();
    expect(await fixture.redis.keys(`${fixture.prefix}:run:{r:${runId}}:*`)).toEqual([]);
  });

  it('serves a prefetched read to the next load only; later loads read Redis again', async () => {
    const memory = storeOf(randomUUID());
    await memory.set('a', 'x', 1);
    memory.prefetch('a');
    expect(await memory.load('a')).toEqual({ x: 1 });
    await memory.set('a', 'x', 3);
    expect(await memory.load('a')).toEqual({ x: 3 });
  });

  it('serves a preloaded read at once (loaded) or to the next load, once; a later prefetch replaces it', async () => {
    const memory = storeOf(randomUUID());
    expect(memory.loaded('a')).toBeUndefined();
    memory.preload('a', { x: '1' });
    expect(memory.loaded('a')).toEqual({ x: 1 });
    expect(memory.loaded('a')).toBeUndefined();
    memory.preload('a', { x: '2' });
    expect(await memory.load('a')).toEqual({ x: 2 });
    expect(memory.loaded('a')).toBeUndefined();
    await memory.set('a', 'x', 3);
    memory.preload('a', { x: '2' });
    memory.prefetch('a');
    expect(memory.loaded('a')).toBeUndefined();
    expect(await memory.load('a')).toEqual({ x: 3 });
  });

  it('clears an invocation loaded empty once it wrote to it', async () => {
    const memory = storeOf(randomUUID());
    expect(await memory.load('a')).toEqual({});
    await memory.set('a', 'x', 1);
    await memory.clear('a');
    expect(await memory.load('a')).toEqual({});
  });
});
