/**
 * The shared reader's joins: a reader whose key the blocked XREAD does not cover gets in (the read
 * returns on its own, or is ended with `CLIENT UNBLOCK` after `JOIN_UNBLOCK_DELAY_MS`), and only
 * one `CLIENT UNBLOCK` ends a blocked read however many readers join it. Blocked reads last a
 * minute here: a join that did not get in would time the test out.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { SharedEventReader } from './shared-event-reader.js';

const fixture = useRedis(import.meta.filename);
const opened: Redis[] = [];

afterAll(async () => {
  for (const redis of opened) redis.disconnect();
});

/** A reader whose single blocked read lasts a minute unless something ends it. */
function reader(): { shared: SharedEventReader; unblocks: () => number; blocked: () => Promise<void> } {
  const name = `shared-reader-test-${randomUUID()}`;
  let unblocks = 0;
  const control = fixture.redis.duplicate();
  opened.push(control);
  const client = control.client.bind(control) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(control, {
    client: (...args: unknown[]) => {
      if (String(args[0]).toUpperCase() === 'UNBLOCK') unblocks++;
      return client(...args);
    },
  });
  const shared = new SharedEventReader({
    openBlocking: () => fixture.redis.duplicate({ connectionName: name }),
    control,
    blockMs: 60_000,
  });
  // Until the blocking connection is blocked in its XREAD (`CLIENT LIST` flag `b`).
  const blocked = () =>
    vi.waitFor(
      async () => {
        const list = (await fixture.redis.client('LIST')) as string;
        const lines = list.split('\n');
        expect(lines.some((line) => line.includes(`name=${name}`) && /\bflags=\w*b/.test(line))).toBe(true);
      },
      { timeout: 10_000, interval: 10 },
    );
  return { shared, unblocks: () => unblocks, blocked };
}

const key = () => `${fixture.prefix}:shared-reader:${randomUUID()}`;

describe('SharedEventReader joins', () => {
  it('lets readers join a read blocked on a quiet stream, with one CLIENT UNBLOCK', async () => {
    const { shared, unblocks, blocked: isBlocked } = reader();
    try {
      const quiet = shared.source();
      const blocked = quiet.read(key(), '0', 60_000);
      // The first read is blocked on a stream nothing writes to.
      await isBlocked();
      const keys = [key(), key(), key()];
      for (const joined of keys) await fixture.redis.xadd(joined, '*', 'event', joined);
      const reads = keys.map((joined) => shared.source().read(joined, '0', 60_000));
      const entries = await Promise.all(reads);
      expect(entries.map((read) => read.map(([, fields]) => fields[1]))).toEqual(keys.map((k) => [k]));
      expect(unblocks()).toBe(1);
      quiet.close();
      expect(await blocked).toEqual([]);
    } finally {
      shared.close();
    }
  });

  it('gets a joining reader its entries when the blocked read returns on its own', async () => {
    const { shared, blocked } = reader();
    try {
      const busy = key();
      const first = shared.source().read(busy, '0', 60_000);
      await blocked();
      const joined = key();
      await fixture.redis.xadd(joined, '*', 'event', 'joined');
      const second = shared.source().read(joined, '0', 60_000);
      // The blocked read returns (its stream gets an entry), by itself or ended by the UNBLOCK
      // planned for the joining reader: either way the joining reader is in the next read.
      await fixture.redis.xadd(busy, '*', 'event', 'busy');
      expect((await first).map(([, fields]) => fields[1])).toEqual(['busy']);
      expect((await second).map(([, fields]) => fields[1])).toEqual(['joined']);
    } finally {
      shared.close();
    }
  });
});

describe('SharedEventReader hand-over', () => {
  it('gives readers of one key at different ids only the entries after their own', async () => {
    const { shared } = reader();
    try {
      const stream = key();
      const first = (await fixture.redis.xadd(stream, '*', 'event', 'one')) as string;
      await fixture.redis.xadd(stream, '*', 'event', 'two');
      // One shared XREAD from the older id answers both: the newer reader's entries are cut.
      const [all, later] = await Promise.all([
        shared.source().read(stream, '0', 60_000),
        shared.source().read(stream, first, 60_000),
      ]);
      expect(all.map(([, fields]) => fields[1])).toEqual(['one', 'two']);
      expect(later.map(([, fields]) => fields[1])).toEqual(['two']);
    } finally {
      shared.close();
    }
  });

  it('reads again on a source whose read settled; closing it in between changes nothing', async () => {
    const { shared } = reader();
    try {
      const stream = key();
      await fixture.redis.xadd(stream, '*', 'event', 'one');
      const source = shared.source();
      const [entry] = await source.read(stream, '0', 60_000);
      source.close();
      // Nothing after `one`: the read ends by its own 100 ms, empty.
      expect(await source.read(stream, (entry as [string, string[]])[0], 100)).toEqual([]);
      await fixture.redis.xadd(stream, '*', 'event', 'two');
      const [next] = await source.read(stream, (entry as [string, string[]])[0], 60_000);
      expect(next?.[1]).toEqual(['event', 'two']);
    } finally {
      shared.close();
    }
  });
});
