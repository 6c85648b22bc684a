/**
 * Runs written as a worker writes them, by the real event sink and run records, for what reads
 * runs without running a worker: `result-waits.mjs`, and the suites `shared-event-reads` and
 * `run-end-notices`.
 */
import { emptyUsage } from '@flotilla/ir';
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

/**
 * Ends the run as succeeded with `output` (the finish script: record, run-end, end notice).
 * @param {import('@flotilla/runtime/internals').RedisRunRecords} records @param {string} runId @param {unknown} output
 * @returns {Promise<boolean>} whether this call ended it
 */
export function endRun(records, runId, output) {
  return records.finish(runId, 'root', { status: 'succeeded', output, usage: emptyUsage(), modelCalls: 0 });
}
