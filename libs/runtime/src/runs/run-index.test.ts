import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { runIndexKeys } from '../keys.js';
import { INDEX_UPKEEP_INTERVAL_MS, indexMember, RedisRunIndex } from './run-index.js';

const fixture = useRedis(import.meta.filename);
const KEY_SECONDS = 3600;
const index = () =>
  new RedisRunIndex({ redis: fixture.redis, prefix: fixture.prefix, keySeconds: KEY_SECONDS });

describe('RedisRunIndex upkeep', () => {
  it('trims and renews an index key once per interval, not on every add', async () => {
    const runs = index();
    const tenant = `t${randomUUID().slice(0, 8)}`;
    const key = runIndexKeys(fixture.prefix, tenant).agent('a');
    const start = Date.now();
    const stale = indexMember(start - 2 * KEY_SECONDS * 1000, 'stale');
    const add = (runId: string, now: number) =>
      runs.add({ runId, agentId: 'a', tenant, createdAt: now }, now);

    await add('r1', start);
    expect(await fixture.redis.ttl(key)).toBeGreaterThan(KEY_SECONDS - 60);
    // Within the interval: the entry is added, the stale one and the lost TTL are left alone.
    await fixture.redis.zadd(key, 0, stale);
    await fixture.redis.persist(key);
    await add('r2', start + INDEX_UPKEEP_INTERVAL_MS - 1);
    expect(await fixture.redis.zrange(key, 0, -1)).toEqual([
      stale,
      indexMember(start, 'r1'),
      indexMember(start + INDEX_UPKEEP_INTERVAL_MS - 1, 'r2'),
    ]);
    expect(await fixture.redis.ttl(key)).toBe(-1);
    // Once the interval has passed: trimmed and renewed again.
    await add('r3', start + INDEX_UPKEEP_INTERVAL_MS);
    expect(await fixture.redis.zrange(key, 0, -1)).not.toContain(stale);
    expect(await fixture.redis.zcard(key)).toBe(3);
    expect(await fixture.redis.ttl(key)).toBeGreaterThan(KEY_SECONDS - 60);
  });

  it('keeps up every key a run is indexed in the first time it sees it', async () => {
    const runs = index();
    const tenant = `t${randomUUID().slice(0, 8)}`;
    const keys = runIndexKeys(fixture.prefix, tenant);
    const now = Date.now();
    await runs.add({ runId: 'r1', agentId: 'a', tenant, createdAt: now }, now);
    await runs.add({ runId: 'r2', agentId: 'a', tenant, createdAt: now, conversationId: 'c1' }, now + 1);
    for (const key of [keys.all, keys.agent('a'), keys.conversation('c1')])
      expect(await fixture.redis.ttl(key)).toBeGreaterThan(KEY_SECONDS - 60);
  });

  it('keeps a key up once for concurrent adds (a parent creating its children together)', async () => {
    const runs = index();
    const tenant = `t${randomUUID().slice(0, 8)}`;
    const key = runIndexKeys(fixture.prefix, tenant).root('root');
    const now = Date.now();
    const add = (runId: string, at: number) =>
      runs.add({ runId, agentId: 'a', tenant, createdAt: at, rootRunId: 'root' }, at);
    // Count the index writes the adds send, and the trims of the tree's key among them.
    let calls = 0;
    let trims = 0;
    const send = fixture.redis.sendCommand.bind(fixture.redis);
    const spy = vi.spyOn(fixture.redis, 'sendCommand').mockImplementation(((command, stream) => {
      if (command.name !== 'evalsha') return send(command, stream);
      const args = command.args.map(String);
      const keyCount = Number(args[1]);
      const keys = args.slice(2, 2 + keyCount);
      const rest = args.slice(2 + keyCount);
      calls++;
      // ARGV: oldest, seconds, then per key its upkeep flag, member count and members.
      let at = 2;
      for (const target of keys) {
        if (target === key && rest[at] === '1') trims++;
        at += 2 + Number(rest[at + 1]);
      }
      return send(command, stream);
    }) as typeof fixture.redis.sendCommand);
    try {
      await Promise.all(['c1', 'c2', 'c3'].map((runId) => add(runId, now)));
    } finally {
      spy.mockRestore();
    }
    expect(calls).toBe(1);
    expect(trims).toBe(1);
    expect(await fixture.redis.ttl(key)).toBeGreaterThan(KEY_SECONDS - 60);
    // The upkeep was remembered when the first add sent it: later adds in the interval skip it.
    await fixture.redis.persist(key);
    await add('c4', now + 1);
    expect(await fixture.redis.zcard(key)).toBe(4);
    expect(await fixture.redis.ttl(key)).toBe(-1);
  });

  it('leaves the upkeep to the next add when the write fails', async () => {
    const runs = index();
    const tenant = `t${randomUUID().slice(0, 8)}`;
    const key = runIndexKeys(fixture.prefix, tenant).agent('a');
    const now = Date.now();
    await fixture.redis.set(key, 'not a sorted set');
    await expect(runs.add({ runId: 'r1', agentId: 'a', tenant, createdAt: now }, now)).rejects.toThrow();
    await fixture.redis.del(key);
    await runs.add({ runId: 'r2', agentId: 'a', tenant, createdAt: now }, now + 1);
    expect(await fixture.redis.ttl(key)).toBeGreaterThan(KEY_SECONDS - 60);
  });
});

describe('RedisRunIndex writes', () => {
  it('indexes the adds of one tick for several tenants, each in its own slot', async () => {
    const runs = index();
    const tenants = [undefined, `t${randomUUID().slice(0, 8)}`, `t${randomUUID().slice(0, 8)}`];
    const agent = `a${randomUUID().slice(0, 8)}`;
    const now = Date.now();
    await Promise.all(
      tenants.map((tenant, i) =>
        runs.add({ runId: `r${i}`, agentId: agent, tenant, createdAt: now, conversationId: 'c' }, now),
      ),
    );
    for (const [i, tenant] of tenants.entries()) {
      const keys = runIndexKeys(fixture.prefix, tenant);
      for (const key of [keys.agent(agent), keys.conversation('c')])
        expect(await fixture.redis.zrange(key, 0, -1)).toEqual([indexMember(now, `r${i}`)]);
      expect(await fixture.redis.zrange(keys.all, 0, -1)).toContain(indexMember(now, `r${i}`));
    }
  });

  it('keeps interleaved children of two trees and agents of one tick apart', async () => {
    const runs = index();
    const tenant = `t${randomUUID().slice(0, 8)}`;
    const keys = runIndexKeys(fixture.prefix, tenant);
    const now = Date.now();
    const children = ['x', 'y', 'x', 'x', 'y'].map((tree, i) => ({
      runId: `${tree}.${i}`,
      agentId: i % 2 === 0 ? 'even' : 'odd',
      tenant,
      createdAt: now,
      rootRunId: tree,
    }));
    await Promise.all(children.map((child) => runs.add(child, now)));
    const members = (ids: string[]) => ids.map((id) => indexMember(now, id));
    expect(await fixture.redis.zrange(keys.root('x'), 0, -1)).toEqual(members(['x.0', 'x.2', 'x.3']));
    expect(await fixture.redis.zrange(keys.root('y'), 0, -1)).toEqual(members(['y.1', 'y.4']));
    expect(await fixture.redis.zrange(keys.agent('even'), 0, -1)).toEqual(members(['x.0', 'x.2', 'y.4']));
    expect(await fixture.redis.zrange(keys.agent('odd'), 0, -1)).toEqual(members(['x.3', 'y.1']));
  });

  it('indexes a large fan-out created in one tick: every child, in every key', async () => {
    const runs = index();
    const tenant = `t${randomUUID().slice(0, 8)}`;
    const keys = runIndexKeys(fixture.prefix, tenant);
    const now = Date.now();
    // More members than one ZADD of the script takes, and more keys than one call takes.
    const children = Array.from({ length: 1200 }, (_, i) => ({
      runId: `root.${String(i).padStart(16, '0')}`,
      agentId: `a${i % 100}`,
      tenant,
      createdAt: now + i,
      rootRunId: 'root',
    }));
    await Promise.all(children.map((child) => runs.add(child, now)));
    expect(await fixture.redis.zcard(keys.root('root'))).toBe(1200);
    expect(await fixture.redis.zcard(keys.all)).toBe(1200);
    expect(await fixture.redis.zrange(keys.agent('a7'), 0, -1)).toHaveLength(12);
    expect(await fixture.redis.ttl(keys.agent('a99'))).toBeGreaterThan(KEY_SECONDS - 60);
  });
});
