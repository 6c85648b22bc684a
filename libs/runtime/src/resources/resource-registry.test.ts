import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTLED } from '../shared/settled.js';
import { hashDeps } from './deps-hash.js';
import { ResourceRegistryClosedError } from './resource-errors.js';
import { ResourceRegistry, resourceEntryId } from './resource-registry.js';

function counted(name = 'client') {
  const log: string[] = [];
  let created = 0;
  const factory = {
    create: async () => {
      created += 1;
      log.push(`create ${name}#${created}`);
      return { name, serial: created };
    },
    destroy: async (resource: { serial: number }) => {
      log.push(`destroy ${name}#${resource.serial}`);
    },
  };
  return { log, factory };
}

const entry = (deps: unknown[] = ['/data']) => resourceEntryId('run:r1:root', 'mcp:fs', hashDeps(deps).hash);

describe('ResourceRegistry', () => {
  describe('reference counting', () => {
    it('creates one instance for concurrent acquirers of the same entry and destroys it once, after the last release', async () => {
      const registry = new ResourceRegistry();
      const { log, factory } = counted();
      const [a, b] = await Promise.all([
        registry.acquire({ entryId: entry(), key: 'mcp:fs', factory, holder: { runId: 'r1', slot: 'a' } }),
        registry.acquire({ entryId: entry(), key: 'mcp:fs', factory, holder: { runId: 'r2', slot: 'b' } }),
      ]);
      expect(a.instance).toBe(b.instance);
      await a.release();
      expect(log).toEqual(['create client#1']);
      await b.release();
      await b.release();
      expect(log).toEqual(['create client#1', 'destroy client#1']);
      expect(registry.size).toBe(0);
    });

    it('keys instances by deps hash: equal deps share, other deps get their own instance', async () => {
      const registry = new ResourceRegistry();
      const { factory } = counted();
      const first = await registry.acquire({
        entryId: entry([{ root: '/data', mode: 'ro' }]),
        key: 'mcp:fs',
        factory,
        holder: { runId: 'r1', slot: 'a' },
      });
      const reordered = await registry.acquire({
        entryId: entry([{ mode: 'ro', root: '/data' }]),
        key: 'mcp:fs',
        factory,
        holder: { runId: 'r2', slot: 'a' },
      });
      const other = await registry.acquire({
        entryId: entry(['/other']),
        key: 'mcp:fs',
        factory,
        holder: { runId: 'r3', slot: 'a' },
      });
      expect(reordered.instance).toBe(first.instance);
      expect(other.instance).not.toBe(first.instance);
      expect(registry.size).toBe(2);
    });

    it('keeps nothing when create fails, so the next acquire tries again', async () => {
      const registry = new ResourceRegistry();
      let attempts = 0;
      const factory = {
        create: async () => {
          attempts += 1;
          if (attempts === 1) throw new Error('server not up');
          return 'connected';
        },
      };
      const holder = { runId: 'r1', slot: 'a' };
      await expect(registry.acquire({ entryId: entry(), key: 'mcp:fs', factory, holder })).rejects.toThrow(
        'server not up',
      );
      expect(registry.size).toBe(0);
      const lease = await registry.acquire({ entryId: entry(), key: 'mcp:fs', factory, holder });
      expect(lease.instance).toBe('connected');
    });

    it('keeps a falsy instance like any other, and never destroys a value without destroy', async () => {
      const registry = new ResourceRegistry();
      const lease = await registry.acquire({
        entryId: entry(),
        key: 'count',
        factory: { create: () => 0 },
        holder: { runId: 'r1', slot: 'a' },
      });
      expect(lease.instance).toBe(0);
      expect(registry.lookup(entry())).toEqual({ instance: 0 });
      await lease.release();
      expect(registry.lookup(entry())).toBeUndefined();
    });
  });

  describe('when the owning run ends', () => {
    it('releases every lease of the run, destroying instances no other run holds', async () => {
      const registry = new ResourceRegistry();
      const fs = counted('fs');
      const db = counted('db');
      await registry.acquire({
        entryId: 'fs',
        key: 'fs',
        factory: fs.factory,
        holder: { runId: 'r1', slot: 'a' },
      });
      await registry.acquire({
        entryId: 'db',
        key: 'db',
        factory: db.factory,
        holder: { runId: 'r1', slot: 'b' },
      });
      await registry.acquire({
        entryId: 'db',
        key: 'db',
        factory: db.factory,
        holder: { runId: 'r2', slot: 'b' },
      });
      await registry.releaseRun('r1');
      expect(fs.log).toEqual(['create fs#1', 'destroy fs#1']);
      expect(db.log).toEqual(['create db#1']);
      await registry.releaseRun('r2');
      expect(db.log).toEqual(['create db#1', 'destroy db#1']);
    });

    it('gives a run that holds no lease the shared settled promise (nothing to wait for)', async () => {
      const registry = new ResourceRegistry();
      const fs = counted('fs');
      await registry.acquire({
        entryId: 'fs',
        key: 'fs',
        factory: fs.factory,
        holder: { runId: 'r1', slot: 'a' },
      });
      expect(registry.releaseRun('none')).toBe(SETTLED);
      const releasing = registry.releaseRun('r1');
      expect(releasing).not.toBe(SETTLED);
      await releasing;
      expect(fs.log).toEqual(['create fs#1', 'destroy fs#1']);
      // Released already: nothing left to wait for.
      expect(registry.releaseRun('r1')).toBe(SETTLED);
    });
  });

  describe('when the worker closes', () => {
    it('destroys every instance once and refuses new acquires', async () => {
      const registry = new ResourceRegistry();
      const { log, factory } = counted();
      const lease = await registry.acquire({
        entryId: entry(),
        key: 'mcp:fs',
        factory,
        holder: { runId: 'r1', slot: 'a' },
      });
      await registry.close();
      await lease.release();
      expect(log).toEqual(['create client#1', 'destroy client#1']);
      const error = await registry
        .acquire({ entryId: entry(), key: 'mcp:fs', factory, holder: { runId: 'r2', slot: 'a' } })
        .catch((caught: unknown) => caught);
      expect(ResourceRegistryClosedError.is(error)).toBe(true);
    });

    it('destroys an instance whose create was still running, and fails its acquire', async () => {
      const registry = new ResourceRegistry();
      const log: string[] = [];
      let finishCreate: (value: string) => void = () => {};
      const acquired = registry
        .acquire({
          entryId: entry(),
          key: 'slow',
          factory: {
            create: () => new Promise<string>((resolve) => (finishCreate = resolve)),
            destroy: (value) => void log.push(`destroy ${value}`),
          },
          holder: { runId: 'r1', slot: 'a' },
        })
        .catch((caught: unknown) => caught);
      await new Promise((resolve) => setImmediate(resolve));
      const closed = registry.close();
      finishCreate('late');
      await closed;
      expect(ResourceRegistryClosedError.is(await acquired)).toBe(true);
      expect(log).toEqual(['destroy late']);
    });
  });

  describe('when the owning run suspends', () => {
    it('keeps the lease, so a replay of the same slot on this worker reuses the instance', async () => {
      const registry = new ResourceRegistry();
      const { log, factory } = counted();
      const holder = { runId: 'r1', slot: 'root#mcp:fs' };
      const first = await registry.acquire({ entryId: entry(), key: 'mcp:fs', factory, holder });
      registry.suspendRun('r1');
      expect(registry.isSuspended('r1')).toBe(true);
      registry.resumeRun('r1');
      const replayed = await registry.acquire({ entryId: entry(), key: 'mcp:fs', factory, holder });
      expect(replayed.instance).toBe(first.instance);
      await registry.releaseRun('r1');
      expect(log).toEqual(['create client#1', 'destroy client#1']);
    });

    it('ignores a late release by the abandoned execution once the replay adopted the lease', async () => {
      const registry = new ResourceRegistry();
      const { log, factory } = counted();
      const holder = { runId: 'r1', slot: 'root#mcp:fs' };
      const abandoned = await registry.acquire({ entryId: entry(), key: 'mcp:fs', factory, holder });
      registry.suspendRun('r1');
      registry.resumeRun('r1');
      const replayed = await registry.acquire({ entryId: entry(), key: 'mcp:fs', factory, holder });
      await abandoned.release();
      expect(registry.lookup(entry())?.instance).toBe(replayed.instance);
      await replayed.release();
      expect(log).toEqual(['create client#1', 'destroy client#1']);
    });

    // The suspended-lease TTL is a timer: fake timers let the test move the clock past it.
    afterEach(() => {
      vi.useRealTimers();
    });

    it('releases the lease when the TTL expires before the run resumes', async () => {
      vi.useFakeTimers();
      const registry = new ResourceRegistry();
      const { log, factory } = counted();
      await registry.acquire({
        entryId: entry(),
        key: 'mcp:fs',
        factory,
        holder: { runId: 'r1', slot: 'a' },
      });
      registry.suspendRun('r1', 20);
      await vi.advanceTimersByTimeAsync(19);
      expect(log).toEqual(['create client#1']);
      await vi.advanceTimersByTimeAsync(1);
      expect(log).toEqual(['create client#1', 'destroy client#1']);
      expect(registry.isSuspended('r1')).toBe(false);
    });

    it('keeps the lease past the TTL when the run resumed in time', async () => {
      vi.useFakeTimers();
      const registry = new ResourceRegistry();
      const { log, factory } = counted();
      await registry.acquire({
        entryId: entry(),
        key: 'mcp:fs',
        factory,
        holder: { runId: 'r1', slot: 'a' },
      });
      registry.suspendRun('r1', 20);
      registry.resumeRun('r1');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(log).toEqual(['create client#1']);
      expect(registry.lookup(entry())).toBeDefined();
    });

    it('releases the old instance first when the replay asks for other deps', async () => {
      const registry = new ResourceRegistry();
      const { log, factory } = counted();
      const holder = { runId: 'r1', slot: 'root#mcp:fs' };
      await registry.acquire({ entryId: entry(['/a']), key: 'mcp:fs', factory, holder });
      registry.suspendRun('r1');
      registry.resumeRun('r1');
      await registry.acquire({ entryId: entry(['/b']), key: 'mcp:fs', factory, holder });
      expect(log).toEqual(['create client#1', 'destroy client#1', 'create client#2']);
    });
  });

  it('lends a live instance synchronously, and nothing for an entry that is not live', async () => {
    const registry = new ResourceRegistry();
    const { factory } = counted();
    await registry.acquire({
      entryId: entry(),
      key: 'mcp:fs',
      factory,
      holder: { runId: 'owner', slot: 'a' },
    });
    const borrowed = registry.borrow(entry(), { runId: 'child', slot: 'inherited#mcp:fs' });
    expect(borrowed?.instance).toMatchObject({ name: 'client' });
    await registry.releaseRun('owner');
    expect(registry.lookup(entry())).toBeDefined();
    expect(registry.borrow('nothing', { runId: 'child', slot: 'x' })).toBeUndefined();
  });
});
