/**
 * Runs written as a worker writes them, by the real records and event sink, for the suites that
 * read runs without running a worker (`shared-event-reads`, `run-end-notices`).
 */
import { randomUUID } from 'node:crypto';
import { RedisRunEventSink } from '@flotilla/runtime/internals';
import type { Redis } from 'ioredis';

/** Appends a `generation-start` of `generation` to the run's stream (one write of the sink). */
export async function emitGeneration(
  redis: Redis,
  prefix: string,
  runId: string,
  generation: number,
): Promise<void> {
  const sink = new RedisRunEventSink({ redis, prefix, runId });
  sink.emit({
    type: 'generation-start',
    runId,
    at: Date.now(),
    callPath: 'root',
    agentId: 'writer',
    generation,
  });
  await sink.flush();
}

/** A fresh run id for the `writer` agent. */
export function newRunId(): string {
  return `run-${randomUUID()}`;
}
