/**
 * Runs written as a worker writes them, by the real event sink, for what reads runs without
 * running a worker: `result-waits.mjs`, and the suites `shared-event-reads` and `run-end-notices`.
 */
import { RedisRunEventSink } from '@flotilla/runtime/internals';

/**
 * Appends a `generation-start` of `generation` to the run's stream (one write of the sink).
 * @param {import('ioredis').Redis} redis @param {string} prefix @param {string} runId @param {number} generation
 */
export async function emitGeneration(redis, prefix, runId, generation) {
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
