/**
 * Redis Cluster bench (issue 15): the scale-out throughput (`scale-out-throughput.mjs`: one-turn
 * runs, worker processes at concurrency 10, a mock model with latency) on a private single
 * `redis-server` and on a private local 3-master Redis Cluster, side by side, alternating so both
 * see the same machine load. Needs `tsx` (the cluster harness is the test suite's):
 * `node --import tsx bench/cluster.mjs`. Not a test: nothing here asserts a timing.
 *
 * Env: BENCH_RUNS (default 800), BENCH_WORKERS (default 2), BENCH_LATENCY_MS (default 50),
 * BENCH_ROUNDS (default 2).
 */
import { startRedisCluster } from '../test/support/redis-cluster.ts';
import { positiveInteger } from './positive-integer.mjs';
import { startPrivateRedis } from './private-redis.mjs';
import { measureThroughput } from './scale-out-throughput.mjs';

const runs = positiveInteger('BENCH_RUNS', 800);
const workers = positiveInteger('BENCH_WORKERS', 2);
const latencyMs = positiveInteger('BENCH_LATENCY_MS', 50);
const rounds = positiveInteger('BENCH_ROUNDS', 2);

const single = await startPrivateRedis();
const cluster = await startRedisCluster();
try {
  for (let round = 1; round <= rounds; round++) {
    for (const [redis, url] of [
      ['single', single.url],
      ['cluster-3-masters', cluster.url],
    ]) {
      const result = await measureThroughput({ url, workers, latencyMs, runs, concurrency: 10 });
      console.log(
        JSON.stringify({
          bench: 'cluster',
          round,
          redis,
          ...result,
          seconds: Number(result.seconds.toFixed(2)),
          runsPerSecond: Number(result.runsPerSecond.toFixed(1)),
        }),
      );
    }
  }
} finally {
  await cluster.stop();
  await single.stop();
}
