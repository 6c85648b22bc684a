/**
 * Scale-out bench (issue 15): 1 → 2 → 4 worker processes, concurrency 10 each, 800 one-turn
 * runs, at 200 ms and 50 ms mock model latency; prints runs/s and the speed-up over one worker.
 * On a private `redis-server` (no other traffic); REDIS_URL overrides it (a cluster URL too).
 * Not a test: nothing here asserts a timing. `node bench/scale-out.mjs`.
 *
 * Env: BENCH_RUNS (default 800), BENCH_CONCURRENCY (default 10), BENCH_WORKERS (default 1,2,4),
 * BENCH_LATENCIES (default 200,50).
 */
import { positiveInteger } from './positive-integer.mjs';
import { startPrivateRedis } from './private-redis.mjs';
import { measureThroughput } from './scale-out-throughput.mjs';

const runs = positiveInteger('BENCH_RUNS', 800);
const concurrency = positiveInteger('BENCH_CONCURRENCY', 10);
const list = (variable, fallback) => (process.env[variable] || fallback).split(',').map(Number);
const workerCounts = list('BENCH_WORKERS', '1,2,4');
const latencies = list('BENCH_LATENCIES', '200,50');

const redis = process.env.REDIS_URL ? undefined : await startPrivateRedis();
const url = process.env.REDIS_URL || redis.url;
try {
  for (const latencyMs of latencies) {
    let base;
    for (const workers of workerCounts) {
      const result = await measureThroughput({ url, workers, latencyMs, runs, concurrency });
      base ??= result.runsPerSecond;
      console.log(
        JSON.stringify({
          bench: 'scale-out',
          ...result,
          seconds: Number(result.seconds.toFixed(2)),
          runsPerSecond: Number(result.runsPerSecond.toFixed(1)),
          speedUp: Number((result.runsPerSecond / base).toFixed(2)),
        }),
      );
    }
  }
} finally {
  await redis?.stop();
}
