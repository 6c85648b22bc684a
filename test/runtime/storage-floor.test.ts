/**
 * The bench's storage floor (`bench/storage-floor.mjs`, `BENCH_FLOOR=1`) must send what a real
 * Flotilla run writes, or its figures say nothing: captured from a real conversational run, its
 * groups are our script calls on each side, and replayed for a fresh run they make the same keys,
 * with the same hash fields and list lengths, as the run it was captured from.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  captureFloorTemplate,
  type FloorGroup,
  type FloorTemplate,
  floorIds,
  floorVariant,
  floorWriter,
  sendCalls,
} from '../../bench/storage-floor.mjs';
import { useRedis } from '../support/redis.js';

const redis = useRedis(import.meta.filename);

let template: FloorTemplate;

beforeAll(async () => {
  template = await captureFloorTemplate('conversation', redis.url, { prefix: `${redis.prefix}:capture` });
});

/** The names of the group's commands, each with its first key's last part (`HSET :record`). */
const shapeOf = (group: FloorGroup) =>
  group.commands.map((command) => `${command[0]?.toUpperCase()} ${(command[1] ?? '').replace(/.*:/, ':')}`);

/** `text` with each of `ids` written `<id k>`, so two runs' names compare. */
const withoutIds = (text: string, ids: string[]) =>
  ids.reduce((named, id, k) => named.split(id).join(`<id ${k}>`), text);

/** The keys under `prefix` that belong to the run or conversation `ids`, by their names without ids. */
async function keysOf(connection: Redis, prefix: string, ids: string[]) {
  const keys = (await connection.keys(`${prefix}:*`)).filter((key) => ids.some((id) => key.includes(id)));
  return new Map(keys.map((key) => [withoutIds(key.slice(prefix.length), ids), key]));
}

/** What a key holds, in a form two runs' keys can be compared by (no ids, times or stream ids). */
async function outlineOf(connection: Redis, key: string, ids: string[]) {
  const type = await connection.type(key);
  if (type === 'hash')
    return { type, fields: (await connection.hkeys(key)).map((field) => withoutIds(field, ids)).sort() };
  if (type === 'list') return { type, length: await connection.llen(key) };
  if (type === 'stream') return { type, length: await connection.xlen(key) };
  if (type === 'zset') return { type, length: await connection.zcard(key) };
  return { type };
}

describe('the storage floor of the cost bench', () => {
  it('captures our script calls of a conversational run, client side then worker side', () => {
    const client = template.groups.filter((group) => group.side === 'client').map(shapeOf);
    const worker = template.groups.filter((group) => group.side === 'worker').map(shapeOf);
    // create-run, register-writer, index-runs: what `submit` sends besides BullMQ's add.
    expect(client).toEqual([
      ['EXISTS :record', 'HSET :record'],
      expect.arrayContaining(['INCR :sequence', 'HSET :lease']),
      expect.arrayContaining(['ZADD :all']),
    ]);
    // start-run, three step writes (the model turn, the tool, the last turn), the conversation's
    // append, the finish and the writer's leave: seven calls, in that order.
    expect(worker).toHaveLength(7);
    expect(worker[0]).toEqual(expect.arrayContaining(['HSET :record']));
    expect(
      worker.slice(1, 4).map((calls) => calls.filter((call) => call === 'HSETNX :journal').length),
    ).toEqual([2, 1, 1]);
    expect(worker[4]).toEqual(expect.arrayContaining(['RPUSH :messages', 'HSET :header']));
    expect(worker[5]).toEqual(expect.arrayContaining(['HSET :record', 'SET :timeline']));
    expect(worker[6]).toEqual(expect.arrayContaining(['HMGET :lease']));
  });

  it('keeps the bytes the run wrote: each journal entry and the timeline as the run stored them', async () => {
    const commands = template.groups.flatMap((group) => group.commands);
    const entries = commands.filter(([name, key]) => name === 'HSETNX' && key?.endsWith(':journal'));
    const timeline = commands.find(([name, key]) => name === 'SET' && key?.endsWith(':timeline'));
    expect(entries.length).toBe(5);
    for (const [, key, field, value] of entries)
      expect(await redis.redis.hget(key as string, field as string)).toBe(value);
    expect(timeline).toBeDefined();
    expect(await redis.redis.get(timeline?.[1] as string)).toBe(timeline?.[2]);
  });

  it('replays as a fresh run that makes the same keys, fields and lengths as the captured run', async () => {
    const prefix = `${redis.prefix}:floor`;
    const ids = floorIds(template, randomUUID(), `bench-${randomUUID()}`);
    for (const side of ['client', 'worker'] as const)
      await sendCalls(redis.redis, floorWriter(template, side, prefix)(ids));
    const captured = await keysOf(redis.redis, template.prefix, template.ids);
    const replayed = await keysOf(redis.redis, prefix, ids);
    expect([...replayed.keys()].sort()).toEqual([...captured.keys()].sort());
    expect(replayed.size).toBeGreaterThanOrEqual(8);
    for (const [name, key] of replayed) {
      const capturedKey = captured.get(name) as string;
      expect({ name, ...(await outlineOf(redis.redis, key, ids)) }).toEqual({
        name,
        ...(await outlineOf(redis.redis, capturedKey, template.ids)),
      });
    }
  });

  it('leaves out what a variant does not store', () => {
    const commandsOf = (variant: string) =>
      floorVariant(template, variant).groups.flatMap((group) =>
        group.commands.map((command) => command.slice(1).join(' ')),
      );
    expect(commandsOf('as-stored').some((args) => /:events\b/.test(args))).toBe(true);
    expect(commandsOf('no-events').some((args) => /:(events|timeline)\b/.test(args))).toBe(false);
    expect(commandsOf('no-gate-index').some((args) => /:gate:|runs:\{x:/.test(args))).toBe(false);
    const workerCalls = (variant: string) =>
      floorVariant(template, variant).groups.filter((group: { side: string }) => group.side === 'worker')
        .length;
    expect(workerCalls('one-write')).toBe(2);
    expect(() => floorVariant(template, 'smaller')).toThrow(/no storage floor variant "smaller"/);
  });
});
