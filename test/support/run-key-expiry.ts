/**
 * "After a run ends, every key under its hash tag `{r:<runId>}` has an expiry": what an
 * operator's Redis relies on not to grow forever, whichever path ended the run (its worker, a
 * cancel, a deadline, the stalled-job handler, a rejection at a gate).
 */
import type { Cluster, Redis } from 'ioredis';
import { expect } from 'vitest';

/** `text` as a literal inside a SCAN MATCH pattern. */
function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}

/**
 * The keys of run `runId` (under `<prefix>:run:{r:<runId>}:`) that have no expiry, sorted; on a
 * cluster, looked for on every master (SCAN walks one node's keys).
 */
export async function runKeysWithoutExpiry(redis: Redis, prefix: string, runId: string): Promise<string[]> {
  const pattern = `${globLiteral(`${prefix}:run:{r:${runId}}:`)}*`;
  const nodes = redis.isCluster ? (redis as unknown as Cluster).nodes('master') : [redis];
  const found = await Promise.all(nodes.map((node) => immortalKeys(node, pattern)));
  return found.flat().sort();
}

async function immortalKeys(redis: Redis, pattern: string): Promise<string[]> {
  const immortal: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    for (const key of keys) if ((await redis.ttl(key)) === -1) immortal.push(key);
  } while (cursor !== '0');
  return immortal;
}

/** Asserts that no key of any of `runIds` is left without an expiry (the message names them). */
export async function expectRunKeysToExpire(
  redis: Redis,
  prefix: string,
  runIds: readonly string[],
): Promise<void> {
  const immortal = (
    await Promise.all(runIds.map((runId) => runKeysWithoutExpiry(redis, prefix, runId)))
  ).flat();
  expect(immortal, 'run keys left without an expiry').toEqual([]);
}
