/**
 * The wake-ups of run-event readers on a Redis Cluster (`cluster-event-reader.ts`): a sharded
 * channel per run stream, published to after each write of the stream's events. Kept apart
 * from the reader so writers import no reader code.
 */
import type { Redis } from 'ioredis';

/** The sharded channel that says "new events" for the stream `eventsKey` (same hash tag, same slot). */
export function eventNoticeChannel(eventsKey: string): string {
  return `${eventsKey}:notice`;
}

/**
 * After events were appended to `eventsKey`: on a Redis Cluster, wakes the readers of this
 * stream (`ClusterEventReader`); on one Redis nothing (readers block on the stream there).
 * Not awaited: the write is done, a lost notice only delays a reader to its deadline.
 */
export function publishEventNotice(redis: Redis, eventsKey: string): void {
  if (!redis.isCluster) return;
  redis.spublish(eventNoticeChannel(eventsKey), '').catch(() => undefined);
}

/**
 * The channel a run's end is published on, on one Redis (`finish-run-12`): what `result()`
 * waits for there (`run-end-reader.ts`), instead of every write of the run's events.
 */
export function runEndChannel(eventsKey: string): string {
  return `${eventsKey}:end`;
}
