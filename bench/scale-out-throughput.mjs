/**
 * Throughput of `workers` worker processes (`scale-out-worker.mjs`) on one Redis (or a Redis
 * Cluster URL): `runs` one-turn runs submitted at once by one client, timed from the first
 * submit until every run ended. Shared by `scale-out.mjs` and `cluster.mjs`.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createClient } from '@flotilla/runtime/client';

const workerProgram = fileURLToPath(new URL('./scale-out-worker.mjs', import.meta.url));

function startWorker(env) {
  const child = spawn(process.execPath, [workerProgram], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`scale-out worker exited early with ${code}`)));
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('ready')) resolve(child);
    });
  });
}

/**
 * @param {{ url: string, workers: number, latencyMs: number, runs: number, concurrency: number }} options
 * @returns {Promise<{ workers: number, latencyMs: number, runs: number, seconds: number, runsPerSecond: number, failed: number, firstError?: string }>}
 */
export async function measureThroughput({ url, workers, latencyMs, runs, concurrency }) {
  const prefix = `flotilla-bench-scale:${randomUUID().slice(0, 8)}`;
  const env = {
    REDIS_URL: url,
    FLOTILLA_PREFIX: prefix,
    BENCH_LATENCY_MS: String(latencyMs),
    BENCH_CONCURRENCY: String(concurrency),
  };
  const children = await Promise.all(Array.from({ length: workers }, () => startWorker(env)));
  const client = createClient({ connection: url, prefix, shareEventReads: true });
  try {
    const started = performance.now();
    const handles = await Promise.all(
      Array.from({ length: runs }, () => client.submit('scale-one-turn', {})),
    );
    const outcomes = await Promise.allSettled(handles.map((handle) => handle.result()));
    const seconds = (performance.now() - started) / 1000;
    const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
    const firstError = rejected[0]?.reason;
    return {
      ...{ workers, latencyMs, runs, seconds, runsPerSecond: runs / seconds, failed: rejected.length },
      ...(firstError && { firstError: `${firstError.name}: ${firstError.message}`.slice(0, 300) }),
    };
  } finally {
    await client.close();
    await Promise.all(
      children.map(async (child) => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }),
    );
  }
}
